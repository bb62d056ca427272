/** Entry point of `npm run moves` (see commands.ts for the commands). */
import { CliError, connect } from "./client.js";
import { runMovesCli } from "./commands.js";

try {
  process.exitCode = await runMovesCli(process.argv.slice(2), connect());
} catch (err) {
  if (!(err instanceof CliError)) throw err;
  console.error(err.message);
  process.exitCode = 2;
}
