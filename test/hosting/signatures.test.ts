/**
 * Signatures of commits (`…/commits/:sha/signature`) and tags (`…/tags/:tag_name/signature`), made
 * with the real tools (gpg, ssh-keygen, openssl) and written into the repository as git writes them.
 * No user keys exist here: a signature is `unknown_key` (PGP; SSH when it verifies) or `unverified`.
 */
import { describe, it, expect, beforeAll, afterAll } from "vitest";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { api, newUser, unique } from "../support/api.js";
import { git, repoPaths } from "../support/git.js";

let owner: Awaited<ReturnType<typeof newUser>>;
let work: string;
const gnupg = () => join(work, "gnupg");
const run = (cmd: string, args: string[], input?: Buffer | string) =>
  execFileSync(cmd, args, { cwd: work, input, env: { PATH: process.env.PATH, GNUPGHOME: gnupg(), HOME: work }, stdio: ["pipe", "pipe", "pipe"] });

beforeAll(async () => {
  owner = await newUser();
  work = mkdtempSync(join(tmpdir(), "signatures-"));
  execFileSync("mkdir", ["-m", "700", gnupg()]);
  run("gpg", ["--batch", "--passphrase", "", "--quick-gen-key", "Signer <signer@example.com>", "ed25519", "sign", "never"]);
  for (const [name, type] of [["ed", "ed25519"], ["rsa", "rsa"], ["ec", "ecdsa"]]) run("ssh-keygen", ["-q", "-t", type!, "-N", "", "-f", join(work, name!)]);
  writeFileSync(join(work, "ext.cnf"), "subjectKeyIdentifier=hash\nauthorityKeyIdentifier=keyid\nsubjectAltName=email:gitlab@example.org\ncrlDistributionPoints=URI:http://example.com/pki.crl\n");
  run("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.pem", "-days", "30", "-subj", "/O=World/OU=Example/CN=PKI", "-addext", "subjectKeyIdentifier=hash"]);
  run("openssl", ["req", "-newkey", "rsa:2048", "-nodes", "-keyout", "signer.key", "-out", "signer.csr", "-subj", "/O=World/OU=Example/CN=gitlab@example.org"]);
  run("openssl", ["x509", "-req", "-in", "signer.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial", "-out", "signer.pem", "-days", "30", "-extfile", "ext.cnf"]);
});
afterAll(() => {
  // The gpg agent gpg started for this folder's keys.
  if (work) execFileSync("gpgconf", ["--kill", "gpg-agent"], { env: { PATH: process.env.PATH, GNUPGHOME: gnupg() } });
  rmSync(work, { recursive: true, force: true });
});

const pgp = (payload: Buffer) => run("gpg", ["--batch", "--armor", "--detach-sign"], payload).toString();
const ssh = (key: string) => (payload: Buffer) => {
  writeFileSync(join(work, "payload"), payload);
  // ssh-keygen leaves an existing signature file alone (it asks, and takes no answer as no).
  rmSync(join(work, "payload.sig"), { force: true });
  run("ssh-keygen", ["-Y", "sign", "-n", "git", "-f", join(work, key), join(work, "payload")]);
  return readFileSync(join(work, "payload.sig"), "utf8");
};
/** What gpgsm writes for git: a detached CMS signature armored as `SIGNED MESSAGE`. */
const x509 = (payload: Buffer) => {
  writeFileSync(join(work, "payload"), payload);
  const der = run("openssl", ["cms", "-sign", "-binary", "-in", "payload", "-signer", "signer.pem", "-inkey", "signer.key", "-outform", "DER"]);
  return `-----BEGIN SIGNED MESSAGE-----\n${der.toString("base64").replace(/(.{64})/g, "$1\n").replace(/\n$/, "")}\n-----END SIGNED MESSAGE-----\n`;
};

async function newProject() {
  const res = await api("POST", "/api/v4/projects", { token: owner.token, body: { name: unique("signed"), initialize_with_readme: true } });
  expect(res.status).toBe(201);
  return { id: res.body.id as number, dir: repoPaths("default", "project", res.body.id)[0]! };
}

/** A commit on `main`'s tree signed as `git commit -S` writes it: the `gpgsig` header after the committer. */
function signedCommit(dir: string, sign: (payload: Buffer) => string, tamper = false): string {
  const tree = git(dir, "rev-parse", "main^{tree}").trim();
  const parent = git(dir, "rev-parse", "main").trim();
  const who = "Signer <signer@example.com> 1700000000 +0000";
  const headers = `tree ${tree}\nparent ${parent}\nauthor ${who}\ncommitter ${who}\n`;
  const payload = Buffer.from(`${headers}\nsigned\n`);
  const signature = sign(tamper ? Buffer.from(`${headers}\nsomething else\n`) : payload);
  const object = `${headers}gpgsig ${signature.trimEnd().split("\n").join("\n ")}\n\nsigned\n`;
  return execFileSync("git", ["--git-dir", dir, "hash-object", "-t", "commit", "-w", "--stdin"], { input: object }).toString().trim();
}

function signedTag(dir: string, name: string, sign: (payload: Buffer) => string): void {
  const payload = `object ${git(dir, "rev-parse", "main").trim()}\ntype commit\ntag ${name}\ntagger Signer <signer@example.com> 1700000000 +0000\n\nRelease\n`;
  const oid = execFileSync("git", ["--git-dir", dir, "hash-object", "-t", "tag", "-w", "--stdin"], { input: payload + sign(Buffer.from(payload)) }).toString().trim();
  git(dir, "update-ref", `refs/tags/${name}`, oid);
}

const signatureOf = (id: number, sha: string) => api("GET", `/api/v4/projects/${id}/repository/commits/${sha}/signature`, { token: owner.token });
const opensslField = (args: string[]) => run("openssl", ["x509", "-noout", ...args, "-in", "signer.pem"]).toString().trim();

describe("GET /projects/:id/repository/commits/:sha/signature", () => {
  it("reads a PGP signature as unknown_key with the signing key's fingerprint", async () => {
    const { id, dir } = await newProject();
    const sha = signedCommit(dir, pgp);
    expect(git(dir, "cat-file", "-p", sha)).toContain("gpgsig -----BEGIN PGP SIGNATURE-----");
    const fingerprint = /^fpr:+([0-9A-F]{40}):/m.exec(run("gpg", ["--with-colons", "--list-keys"]).toString())![1];
    expect((await signatureOf(id, sha)).body).toEqual({
      signature_type: "PGP",
      verification_status: "unknown_key",
      gpg_key_id: null,
      gpg_key_primary_keyid: fingerprint,
      gpg_key_user_name: null,
      gpg_key_user_email: null,
      gpg_key_subkey_id: null,
      commit_source: "gitaly",
    });
  });

  it("checks an SSH signature against the key it carries: unknown_key when it verifies, unverified when it does not", async () => {
    const { id, dir } = await newProject();
    for (const key of ["ed", "rsa", "ec"]) {
      expect((await signatureOf(id, signedCommit(dir, ssh(key)))).body, key).toEqual({ signature_type: "SSH", verification_status: "unknown_key", key: null, commit_source: "gitaly" });
    }
    expect((await signatureOf(id, signedCommit(dir, ssh("ed"), true))).body).toMatchObject({ signature_type: "SSH", verification_status: "unverified" });
  });

  it("reads an X.509 signature's certificate as GitLab shows it, unverified", async () => {
    const { id, dir } = await newProject();
    const res = await signatureOf(id, signedCommit(dir, x509));
    expect(res.status).toBe(200);
    const serial = BigInt(`0x${opensslField(["-serial"]).split("=")[1]}`).toString();
    // The serial number is a JSON number, whole (beyond a double's precision).
    expect(res.text).toContain(`"serial_number":${serial},`);
    const keyId = (ext: string) => opensslField(["-ext", ext]).split("\n").pop()!.trim().replace(/^keyid:/, "");
    expect(res.body).toEqual({
      signature_type: "X509",
      verification_status: "unverified",
      x509_certificate: {
        id: null,
        subject: opensslField(["-subject", "-nameopt", "RFC2253"]).replace(/^subject=/, ""),
        subject_key_identifier: keyId("subjectKeyIdentifier"),
        email: "gitlab@example.org",
        serial_number: expect.any(Number),
        certificate_status: "good",
        x509_issuer: { id: null, subject: "CN=PKI,OU=Example,O=World", subject_key_identifier: keyId("authorityKeyIdentifier"), crl_url: "http://example.com/pki.crl" },
      },
      commit_source: "gitaly",
    });
    expect(res.body.x509_certificate.subject).toBe("CN=gitlab@example.org,OU=Example,O=World");
  });

  it("answers 404 Signature Not Found for an unsigned commit, 404 Commit Not Found, and hides a private project", async () => {
    const { id } = await newProject();
    expect(await signatureOf(id, "main")).toMatchObject({ status: 404, body: { message: "404 Signature Not Found" } });
    expect(await signatureOf(id, "nope")).toMatchObject({ status: 404, body: { message: "404 Commit Not Found" } });
    expect((await api("GET", `/api/v4/projects/${id}/repository/commits/main/signature`, { token: (await newUser()).token })).status).toBe(404);
    expect((await api("GET", `/api/v4/projects/${id}/repository/commits/main/signature`)).status).toBe(404);
  });
});

describe("GET /projects/:id/repository/tags/:tag_name/signature", () => {
  it("details an X.509-signed tag, names the type of another signature, and 404s unsigned and unknown tags", async () => {
    const { id, dir } = await newProject();
    signedTag(dir, "v1.0.0", x509);
    signedTag(dir, "v2.0.0", pgp);
    const tag = (name: string) => api("GET", `/api/v4/projects/${id}/repository/tags/${name}/signature`, { token: owner.token });
    expect((await tag("v1.0.0")).body).toMatchObject({
      signature_type: "X509",
      verification_status: "unverified",
      x509_certificate: { subject: "CN=gitlab@example.org,OU=Example,O=World", email: "gitlab@example.org", x509_issuer: { subject: "CN=PKI,OU=Example,O=World" } },
    });
    expect((await tag("v2.0.0")).body).toEqual({ signature_type: "PGP" });
    // The signed tag still reads as a tag, its message without the signature.
    expect((await api("GET", `/api/v4/projects/${id}/repository/tags/v1.0.0`, { token: owner.token })).body).toMatchObject({ name: "v1.0.0", message: "Release\n" });
    await api("POST", `/api/v4/projects/${id}/repository/tags`, { token: owner.token, body: { tag_name: "plain", ref: "main", message: "not signed" } });
    await api("POST", `/api/v4/projects/${id}/repository/tags`, { token: owner.token, body: { tag_name: "light", ref: "main" } });
    expect(await tag("plain")).toMatchObject({ status: 404, body: { message: "404 Signature Not Found" } });
    expect(await tag("light")).toMatchObject({ status: 404, body: { message: "404 Signature Not Found" } });
    expect(await tag("nope")).toMatchObject({ status: 404, body: { message: "404 Tag Not Found" } });
  });
});
