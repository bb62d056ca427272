/** `npx tsx functions/academic/build/hash.ts <secret> [scrypt|sha256]`: a hash for the users file. */
import { hashSecreto } from "../domain/usuarios.js";

const [secreto, tipo = "scrypt"] = process.argv.slice(2);
if (!secreto || (tipo !== "scrypt" && tipo !== "sha256")) {
  console.error("usage: tsx functions/academic/build/hash.ts <secret> [scrypt|sha256]");
  process.exit(2);
}
console.log(hashSecreto(secreto, tipo));
