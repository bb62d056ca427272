/**
 * The signature of a commit (its `gpgsig` header) or of an annotated tag (a block at the end of its
 * message), read as GitLab's signature APIs describe it. No user GPG keys, SSH keys or X.509
 * certificates are stored here, so no signature can be tied to a user and none is `verified`:
 * - PGP: `unknown_key`, with the signing key's id (its fingerprint when the signature names it),
 *   as GitLab reports a signature by a key no user added;
 * - SSH: `unknown_key` when the signature verifies with the public key it carries (GitLab checks
 *   that first), `unverified` otherwise or for an algorithm not checked here;
 * - X.509: `unverified` (no trust store for signers), with the signer's certificate as it reads.
 */
import { createHash, createPublicKey, verify, type KeyObject } from "node:crypto";
import { gitFs as fs } from "./git-fs.js";
import { git } from "./engine.js";
import { requireRepository } from "./lifecycle.js";
import { resolveCommit, resolveExactRef, isValidRefName, type ObjectCache } from "./refs.js";
import { signerCertificate, type CertificateInfo } from "./x509-signer.js";

export type { CertificateInfo };

export type Signature =
  | { type: "PGP"; status: "unknown_key"; keyId: string | null }
  | { type: "SSH"; status: "unknown_key" | "unverified" }
  | { type: "X509"; status: "unverified"; certificate: CertificateInfo | null };

const ARMOR = /-----BEGIN (PGP SIGNATURE|SSH SIGNATURE|SIGNED MESSAGE)-----[\s\S]*?-----END \1-----\n?/;

/** `commit`: no such commit; `none`: the commit is not signed. */
export async function commitSignature(storage: string, rel: string, ref: string): Promise<Signature | "commit" | "none"> {
  const gitdir = await requireRepository(storage, rel);
  const cache: ObjectCache = {};
  const oid = await resolveCommit(gitdir, ref, cache);
  if (!oid) return "commit";
  const { object } = await git.readObject({ fs, gitdir, oid, format: "content", cache });
  const split = splitCommit(Buffer.from(object as Uint8Array).toString("utf8"));
  return split ? readSignature(split.signature, Buffer.from(split.signed, "utf8")) : "none";
}

/** `tag`: no such tag; `none`: a lightweight or unsigned tag. */
export async function tagSignature(storage: string, rel: string, name: string): Promise<Signature | "tag" | "none"> {
  const gitdir = await requireRepository(storage, rel);
  const oid = isValidRefName(name) ? await resolveExactRef(gitdir, `refs/tags/${name}`) : undefined;
  if (!oid) return "tag";
  const { type, object } = await git.readObject({ fs, gitdir, oid, format: "content", cache: {} });
  if (type !== "tag") return "none";
  const text = Buffer.from(object as Uint8Array).toString("utf8");
  const found = ARMOR.exec(text.slice(text.indexOf("\n\n")));
  if (!found) return "none";
  const at = text.lastIndexOf(found[0]);
  return readSignature(found[0], Buffer.from(text.slice(0, at), "utf8"));
}

/** The commit's `gpgsig` header (continuation lines unfolded) and the object without it, which is what was signed. */
function splitCommit(text: string): { signature: string; signed: string } | undefined {
  const end = text.indexOf("\n\n");
  const lines = text.slice(0, end === -1 ? text.length : end).split("\n");
  const start = lines.findIndex((l) => l.startsWith("gpgsig ") || l.startsWith("gpgsig-sha256 "));
  if (start === -1) return undefined;
  let stop = start + 1;
  while (stop < lines.length && lines[stop]!.startsWith(" ")) stop++;
  const signature = [lines[start]!.slice(lines[start]!.indexOf(" ") + 1), ...lines.slice(start + 1, stop).map((l) => l.slice(1))].join("\n") + "\n";
  const kept = [...lines.slice(0, start), ...lines.slice(stop)].join("\n");
  return { signature, signed: kept + (end === -1 ? "" : text.slice(end)) };
}

function readSignature(armored: string, signed: Buffer): Signature | "none" {
  const kind = ARMOR.exec(armored)?.[1];
  if (kind === "PGP SIGNATURE") return { type: "PGP", status: "unknown_key", keyId: pgpIssuer(armorBody(armored)) };
  if (kind === "SSH SIGNATURE") return { type: "SSH", status: sshSignatureVerifies(armorBody(armored), signed) ? "unknown_key" : "unverified" };
  if (kind === "SIGNED MESSAGE") return { type: "X509", status: "unverified", certificate: signerCertificate(armorBody(armored)) };
  return "none";
}

/** The base64 payload of an ASCII-armored block, without its headers and its `=` checksum line. */
function armorBody(armored: string): Buffer {
  const lines = armored.trim().split("\n").slice(1, -1);
  const blank = lines.findIndex((l) => l.trim() === "");
  const body = (lines.some((l) => l.includes(": ")) && blank !== -1 ? lines.slice(blank + 1) : lines).filter((l) => !l.startsWith("="));
  return Buffer.from(body.join(""), "base64");
}

// ── OpenPGP (RFC 4880): the issuer of a signature packet ─────────────────────────────────────

function pgpIssuer(packet: Buffer): string | null {
  try {
    const header = packet[0]!;
    if ((header & 0x80) === 0) return null;
    let offset: number;
    if (header & 0x40) {
      const first = packet[1]!;
      offset = first < 192 ? 2 : first < 224 ? 3 : 6;
    } else {
      offset = 1 + [1, 2, 4, 0][header & 0x03]!;
    }
    const body = packet.subarray(offset);
    if (body[0] === 3) return body.subarray(7, 15).toString("hex").toUpperCase();
    if (body[0] !== 4) return null;
    const hashedLength = body.readUInt16BE(4);
    const hashed = body.subarray(6, 6 + hashedLength);
    const unhashed = body.subarray(8 + hashedLength, 8 + hashedLength + body.readUInt16BE(6 + hashedLength));
    const found = subpackets(Buffer.concat([hashed, unhashed]));
    const fingerprint = found.get(33);
    if (fingerprint) return fingerprint.subarray(1).toString("hex").toUpperCase();
    return found.get(16)?.toString("hex").toUpperCase() ?? null;
  } catch {
    return null;
  }
}

function subpackets(data: Buffer): Map<number, Buffer> {
  const found = new Map<number, Buffer>();
  for (let i = 0; i < data.length; ) {
    let length = data[i]!;
    let size = 1;
    if (length >= 192 && length < 255) [length, size] = [((length - 192) << 8) + data[i + 1]! + 192, 2];
    else if (length === 255) [length, size] = [data.readUInt32BE(i + 1), 5];
    const type = data[i + size]! & 0x7f;
    found.set(type, data.subarray(i + size + 1, i + size + length));
    i += size + length;
  }
  return found;
}

// ── SSH signatures (OpenSSH's PROTOCOL.sshsig), namespace `git` ─────────────────────────────

class Reader {
  constructor(
    private readonly data: Buffer,
    private offset = 0,
  ) {}
  bytes(n: number): Buffer {
    if (this.offset + n > this.data.length) throw new Error("truncated");
    return this.data.subarray(this.offset, (this.offset += n));
  }
  string(): Buffer {
    return this.bytes(this.bytes(4).readUInt32BE(0));
  }
}

const b64url = (b: Buffer) => b.toString("base64url");
const unsigned = (mpint: Buffer) => (mpint[0] === 0 ? mpint.subarray(1) : mpint);

function sshSignatureVerifies(blob: Buffer, message: Buffer): boolean {
  try {
    const r = new Reader(blob);
    if (r.bytes(6).toString() !== "SSHSIG" || r.bytes(4).readUInt32BE(0) !== 1) return false;
    const publicKey = r.string();
    const namespace = r.string();
    const reserved = r.string();
    const hashAlgorithm = r.string().toString();
    const signature = new Reader(r.string());
    const algorithm = signature.string().toString();
    const raw = signature.string();
    if (namespace.toString() !== "git" || !["sha256", "sha512"].includes(hashAlgorithm)) return false;
    const digest = createHash(hashAlgorithm).update(message).digest();
    const field = (b: Buffer) => Buffer.concat([lengthOf(b), b]);
    const signedData = Buffer.concat([Buffer.from("SSHSIG"), field(namespace), field(reserved), field(Buffer.from(hashAlgorithm)), field(digest)]);
    const key = sshPublicKey(publicKey);
    if (!key) return false;
    if (algorithm === "ssh-ed25519") return verify(null, signedData, key.key, raw);
    if (algorithm === "rsa-sha2-256" || algorithm === "rsa-sha2-512") return verify(algorithm === "rsa-sha2-256" ? "sha256" : "sha512", signedData, key.key, raw);
    if (algorithm.startsWith("ecdsa-sha2-nistp")) {
      const parts = new Reader(raw);
      const size = key.curveBytes!;
      const pad = (n: Buffer) => Buffer.concat([Buffer.alloc(Math.max(0, size - unsigned(n).length)), unsigned(n)]);
      const rs = Buffer.concat([pad(parts.string()), pad(parts.string())]);
      return verify(size === 32 ? "sha256" : size === 48 ? "sha384" : "sha512", signedData, { key: key.key, dsaEncoding: "ieee-p1363" }, rs);
    }
    return false;
  } catch {
    return false;
  }
}

const lengthOf = (b: Buffer) => {
  const n = Buffer.alloc(4);
  n.writeUInt32BE(b.length, 0);
  return n;
};

const CURVES: Record<string, { crv: string; bytes: number }> = { nistp256: { crv: "P-256", bytes: 32 }, nistp384: { crv: "P-384", bytes: 48 }, nistp521: { crv: "P-521", bytes: 66 } };

function sshPublicKey(blob: Buffer): { key: KeyObject; curveBytes?: number } | undefined {
  const r = new Reader(blob);
  const type = r.string().toString();
  if (type === "ssh-ed25519") return { key: createPublicKey({ key: { kty: "OKP", crv: "Ed25519", x: b64url(r.string()) }, format: "jwk" }) };
  if (type === "ssh-rsa") {
    const e = unsigned(r.string());
    const n = unsigned(r.string());
    return { key: createPublicKey({ key: { kty: "RSA", n: b64url(n), e: b64url(e) }, format: "jwk" }) };
  }
  if (type.startsWith("ecdsa-sha2-")) {
    const curve = CURVES[r.string().toString()];
    const point = r.string();
    if (!curve || point[0] !== 4) return undefined;
    const x = point.subarray(1, 1 + curve.bytes);
    const y = point.subarray(1 + curve.bytes);
    return { key: createPublicKey({ key: { kty: "EC", crv: curve.crv, x: b64url(x), y: b64url(y) }, format: "jwk" }), curveBytes: curve.bytes };
  }
  return undefined;
}
