/**
 * GitLab's own documentation examples, replayed: for every `/api/v4` route of the route table that
 * GitLab documents, the fixture `test/fixtures/gitlab-doc-examples.json` keeps the doc page and
 * section, the curl line as printed there and the example response. Each curl line is parsed and
 * sent as curl would send it (`--data` form-encoded and joined with `&`, `--form` as multipart, a JSON
 * body where the line sets `Content-Type: application/json`, the query string as written), after the
 * doc's ids are replaced by the ids of containers this file creates. The answer must carry the
 * example's status and every key the example response shows (recursively), and the values the entry
 * names as fixed. Where the service deliberately differs, the entry lists the keys it lacks and why;
 * those keys must really be absent, so the list cannot go stale.
 *
 * Instance-wide examples (settings, bulk moves of a whole storage) run on a runtime of this file.
 */
import { describe, it, expect, beforeAll, afterAll } from "vitest";
import { execFile, execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import * as z from "zod/mini";
import { routes } from "../../functions/routes.js";
import { requestAt, unique, type ApiResponse } from "../support/api.js";
import { startIsolatedRuntime, type IsolatedRuntime } from "../moves/isolated-runtime.js";
import { waitForMove } from "../moves/support.js";
import { startReceiver } from "../errortracking/hooks/receiver.js";

let hookReceiver: Awaited<ReturnType<typeof startReceiver>> | undefined;
/** Folders holding the keys `project_signed` made (and the gpg agent serving them), removed after the run. */
const signingFolders: string[] = [];

const Example = z.object({
  route: z.string(),
  doc: z.string(),
  section: z.string(),
  curl: z.string(),
  /** Files the curl line reads with `-d @name` (JSON), or uploads with `--form field=@name` (base64). */
  files: z.optional(z.record(z.string(), z.unknown())),
  /** What must exist first: names of the world's builders below (`project`, `snippet`, …). */
  given: z.array(z.string()),
  /** Literal text of the curl line → the same text with `{var}` taken from `given`. */
  substitute: z.optional(z.record(z.string(), z.string())),
  status: z.number(),
  /** The doc's example response (an array's first element stands for all); null: no body shown. */
  response: z.unknown(),
  /** Response headers the doc's example shows (a `HEAD` answer carries its facts only there). */
  headers: z.optional(z.array(z.string())),
  /** Dotted key paths whose documented value the answer must equal. */
  fixed: z.optional(z.array(z.string())),
  /** Dotted key paths of the example the service does not return, with `differences` saying why. */
  missing: z.optional(z.array(z.string())),
  differences: z.optional(z.string()),
  /** Where the service answers the example with another status on purpose, and why. */
  deviation: z.optional(z.object({ status: z.number(), why: z.string() })),
  /** How the entry was taken from the page (no curl line there, abridged response, …). */
  note: z.optional(z.string()),
  /** The offering the example needs (GitLab.com-only features); default self-managed. */
  offering: z.optional(z.enum(["self-managed", "hosted"])),
});
const Fixture = z.object({
  about: z.string(),
  examples: z.array(Example),
  undocumented: z.array(z.object({ route: z.string(), reason: z.string() })),
});
type Example = z.infer<typeof Example>;

const fixture = Fixture.parse(JSON.parse(readFileSync(new URL("../fixtures/gitlab-doc-examples.json", import.meta.url), "utf8")));

// ── the curl line, as curl sends it ─────────────────────────────────────────────────────────────

/** Splits a shell command line into words: quotes, backslash escapes and line continuations. */
function shellWords(line: string): string[] {
  const words: string[] = [];
  let word: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (ch === "\\" && line[i + 1] === "\n") {
      i++;
      continue;
    }
    if (/\s/.test(ch)) {
      if (word !== null) words.push(word);
      word = null;
      continue;
    }
    word ??= "";
    if (ch === "'") {
      const end = line.indexOf("'", i + 1);
      word += line.slice(i + 1, end);
      i = end;
    } else if (ch === '"') {
      for (i++; line[i] !== '"'; i++) word += line[i] === "\\" && /["\\$`]/.test(line[i + 1]!) ? line[++i] : line[i];
    } else if (ch === "\\") word += line[++i];
    else word += ch;
  }
  if (word !== null) words.push(word);
  return words;
}

interface CurlRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string | FormData;
}

/** What curl puts on the wire for these words (the options GitLab's docs use). */
function curlRequest(line: string, files: Record<string, unknown> = {}): CurlRequest {
  const words = shellWords(line);
  if (words.shift() !== "curl") throw new Error(`not a curl line: ${line}`);
  let method: string | undefined;
  let url = "";
  const headers: Record<string, string> = {};
  const data: string[] = [];
  let form: FormData | undefined;
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    const next = () => words[++i]!;
    if (w === "--request" || w === "-X") method = next();
    else if (w === "--head" || w === "-I") method = "HEAD";
    else if (w === "--header" || w === "-H") {
      const [name, ...value] = next().split(":");
      headers[name!.trim()] = value.join(":").trim();
    } else if (w === "--data" || w === "-d" || w === "--data-raw") {
      const value = next();
      // `-d @file` reads a file; `--data "$PAYLOAD"` a shell variable the doc sets just before.
      const source = value.startsWith("@") && w !== "--data-raw" ? value.slice(1) : value.startsWith("$") ? value : undefined;
      data.push(source !== undefined ? JSON.stringify(files[source]) : value);
    } else if (w === "--form" || w === "-F") {
      const [name, ...rest] = next().split("=");
      const value = rest.join("=");
      // `-F name=@file` uploads a file: `files` holds its bytes, base64-encoded.
      const file = value.startsWith("@") ? files[value.slice(1)] : undefined;
      if (file !== undefined) (form ??= new FormData()).append(name!, new Blob([Buffer.from(String(file), "base64")]), value.slice(1).split("/").pop());
      else (form ??= new FormData()).append(name!, value);
    } else if (w === "--remote-header-name" || w === "--remote-name" || w === "-O" || w === "-J") {
      // Where curl saves the answer: nothing on the wire.
    } else if (w === "--url") url = next();
    else if (w.startsWith("-")) throw new Error(`curl option the replay does not know: ${w}`);
    else url = w;
  }
  const hasType = Object.keys(headers).some((h) => h.toLowerCase() === "content-type");
  let body: string | FormData | undefined;
  if (form) body = form;
  else if (data.length) {
    body = data.join("&");
    if (!hasType) headers["Content-Type"] = "application/x-www-form-urlencoded";
  }
  return { method: method ?? (body !== undefined ? "POST" : "GET"), url, headers, body };
}

// ── the world each example needs ───────────────────────────────────────────────────────────────

let rt: IsolatedRuntime;
type Vars = Record<string, string>;

async function call(method: string, path: string, body?: unknown, token = rt.token): Promise<ApiResponse> {
  const res = await requestAt(rt.baseUrl, method, path, { token, body });
  if (res.status >= 300) throw new Error(`setup ${method} ${path}: ${res.status} ${res.text}`);
  return res;
}

const builders: Record<string, (v: Vars) => Promise<void>> = {
  async jack_smith() {
    await call("POST", "/api/v4/users", { username: "jack_smith", name: "Jack Smith", email: "jack@example.com" });
  },
  async user(v) {
    const username = unique("user").replace("-", "_");
    v.user = String((await call("POST", "/api/v4/users", { username, name: `User ${username}`, email: `${username}@example.com` })).body.id);
  },
  async blocked_user(v) {
    await builders.user!(v);
    await call("POST", `/api/v4/users/${v.user}/block`);
  },
  async banned_user(v) {
    await builders.user!(v);
    await call("POST", `/api/v4/users/${v.user}/ban`);
  },
  /** A user an administrator deactivated (it never used its token: it is dormant). */
  async deactivated_user(v) {
    await builders.user!(v);
    await call("POST", `/api/v4/users/${v.user}/deactivate`);
  },
  /** The administrator's own status, the page's coffee example. */
  async own_status() {
    await call("PUT", "/api/v4/user/status", { emoji: "coffee", availability: "busy", message: "I crave coffee :coffee:" });
  },
  /** A user who is a member of one project and one group. */
  async memberships(v) {
    await builders.project_member!(v);
    await builders.group!(v);
    await call("POST", `/api/v4/groups/${v.group}/members`, { user_id: Number(v.user), access_level: 20 });
  },
  async impersonation_token(v) {
    await builders.user!(v);
    const body = { name: "mytoken", scopes: ["api"], expires_at: v.in_a_month };
    v.impersonation_token = String((await call("POST", `/api/v4/users/${v.user}/impersonation_tokens`, body)).body.id);
  },
  /** A user and a token of their own (an example that revokes the token it is sent with). */
  async own_token(v) {
    await builders.user!(v);
    const token = (await call("POST", `/api/v4/users/${v.user}/personal_access_tokens`, { name: "doc", scopes: ["api"] })).body;
    v.token = token.token;
    v.token_id = String(token.id);
  },
  async project(v) {
    const p = (await call("POST", "/api/v4/projects", { name: unique("doc"), initialize_with_readme: true })).body;
    v.project = String(p.id);
    v.project_path = encodeURIComponent(p.path_with_namespace);
    v.project_full_path = p.path_with_namespace;
    v.owner = String((await call("GET", "/api/v4/user")).body.id);
  },
  /** The file the doc's repository files examples update and delete. */
  async project_rb(v) {
    await builders.project!(v);
    const actions = [{ action: "create", file_path: "app/project.rb", content: "old content" }];
    await call("POST", `/api/v4/projects/${v.project}/repository/commits`, { branch: "main", commit_message: "file", actions });
  },
  /** A commit "Feature added" on main (`commit`), the one the doc reverts and asks about. */
  async project_feature(v) {
    await builders.project!(v);
    const actions = [{ action: "create", file_path: "feature.rb", content: "feature\n" }];
    v.commit = (await call("POST", `/api/v4/projects/${v.project}/repository/commits`, { branch: "main", commit_message: "Feature added", actions })).body.id;
  },
  /** `commit` (as `project_feature`) with a comment on it, also on `main`'s head. */
  async project_commit_note(v) {
    await builders.project_feature!(v);
    await call("POST", `/api/v4/projects/${v.project}/repository/commits/${v.commit}/comments`, { note: "this code is really nice" });
  },
  /** A tag v0.9.0, then a commit with a `Changelog: feature` trailer: what the doc's changelog examples list. */
  async project_changelog(v) {
    await builders.project!(v);
    await call("POST", `/api/v4/projects/${v.project}/repository/tags`, { tag_name: "v0.9.0", ref: "main" });
    const actions = [{ action: "create", file_path: "feature.rb", content: "feature\n" }];
    await call("POST", `/api/v4/projects/${v.project}/repository/commits`, { branch: "main", commit_message: "Title 1\n\nChangelog: feature", actions });
  },
  /** main and feature, each a commit past the initial commit: their merge base is that commit. */
  async project_branches(v) {
    await builders.project!(v);
    const commit = async (branch: string, start_branch?: string) =>
      (await call("POST", `/api/v4/projects/${v.project}/repository/commits`, { branch, start_branch, commit_message: branch, actions: [{ action: "create", file_path: `${branch}.txt`, content: branch }] })).body.id;
    v.feature_head = await commit("feature", "main");
    v.main_head = await commit("main");
  },
  /** The branch the doc deletes. */
  async project_newbranch(v) {
    await builders.project!(v);
    await call("POST", `/api/v4/projects/${v.project}/repository/branches`, { branch: "newbranch", ref: "main" });
  },
  /** The branch rule the doc's update example changes. */
  async project_protected_feature(v) {
    await builders.project!(v);
    await call("POST", `/api/v4/projects/${v.project}/protected_branches`, { name: "feature-branch" });
  },
  /** The wildcard branch rule the doc unprotects. */
  async project_protected_stable(v) {
    await builders.project!(v);
    await call("POST", `/api/v4/projects/${v.project}/protected_branches`, { name: "*-stable" });
  },
  /** The doc's protected tag `release-1-0`. */
  async project_protected_tag(v) {
    await builders.project!(v);
    await call("POST", `/api/v4/projects/${v.project}/protected_tags`, { name: "release-1-0" });
  },
  /** The wildcard tag rule the doc unprotects. */
  async project_protected_tag_stable(v) {
    await builders.project!(v);
    await call("POST", `/api/v4/projects/${v.project}/protected_tags`, { name: "*-stable" });
  },
  /** The doc's tag v1.0.0, annotated. */
  async project_tag(v) {
    await builders.project!(v);
    await call("POST", `/api/v4/projects/${v.project}/repository/tags`, { tag_name: "v1.0.0", ref: "main", message: "Release 1.0.0" });
  },
  /** Ruby, JavaScript, HTML and CoffeeScript files in the proportions of the doc's languages example. */
  async project_languages(v) {
    await builders.project!(v);
    const sizes = { "app.rb": 6669, "app.js": 2298, "index.html": 791, "app.coffee": 242 };
    const actions = Object.entries(sizes).map(([file_path, n]) => ({ action: "create", file_path, content: "x".repeat(n) }));
    await call("POST", `/api/v4/projects/${v.project}/repository/commits`, { branch: "main", commit_message: "languages", actions });
  },
  /** A project whose repository was fetched over HTTP once (git's `ls-remote`, protocol v2: one upload-pack request). */
  async project_fetched(v) {
    await builders.project!(v);
    const url = new URL((await call("GET", `/api/v4/projects/${v.project}`)).body.http_url_to_repo);
    [url.username, url.password] = ["oauth2", rt.token];
    await promisify(execFile)("git", ["-c", "protocol.version=2", "ls-remote", url.toString()], { env: { PATH: process.env.PATH, GIT_TERMINAL_PROMPT: "0", GIT_CONFIG_NOSYSTEM: "1" } });
  },
  /**
   * A commit signed with a new GPG key (`commit`, the head of `main`) and a tag `v1.1.1` signed with
   * an X.509 certificate (CMS, as gpgsm writes it), pushed over HTTP.
   */
  async project_signed(v) {
    await builders.project!(v);
    const work = mkdtempSync(join(tmpdir(), "doc-signed-"));
    signingFolders.push(work);
    const env = { PATH: process.env.PATH, HOME: work, GNUPGHOME: join(work, "gnupg"), GIT_TERMINAL_PROMPT: "0", GIT_CONFIG_NOSYSTEM: "1" };
    // Asynchronously: the runtime answering git's requests may share this process's event loop.
    const run = async (cmd: string, args: string[], input?: string) => {
      const child = promisify(execFile)(cmd, args, { cwd: work, env, encoding: "buffer" });
      if (input !== undefined) child.child.stdin!.end(input);
      return (await child).stdout;
    };
    mkdirSync(join(work, "gnupg"), { mode: 0o700 });
    await run("gpg", ["--batch", "--passphrase", "", "--quick-gen-key", "John Doe <johndoe@example.com>", "ed25519", "sign", "never"]);
    const url = new URL((await call("GET", `/api/v4/projects/${v.project}`)).body.http_url_to_repo);
    [url.username, url.password] = ["oauth2", rt.token];
    await run("git", ["clone", "-q", url.toString(), "repo"]);
    const git = async (...args: string[]) => (await run("git", ["-C", "repo", "-c", "user.name=John Doe", "-c", "user.email=johndoe@example.com", ...args])).toString();
    await git("commit", "-q", "-S", "--allow-empty", "-m", "Signed");
    await run("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "signer.key", "-out", "signer.pem", "-days", "30", "-subj", "/O=World/OU=Example/CN=gitlab@example.org", "-addext", "subjectAltName=email:gitlab@example.org"]);
    const payload = `object ${(await git("rev-parse", "HEAD")).trim()}\ntype commit\ntag v1.1.1\ntagger John Doe <johndoe@example.com> 1700000000 +0000\n\nv1.1.1\n`;
    writeFileSync(join(work, "payload"), payload);
    const der = await run("openssl", ["cms", "-sign", "-binary", "-in", "payload", "-signer", "signer.pem", "-inkey", "signer.key", "-outform", "DER"]);
    const armored = `-----BEGIN SIGNED MESSAGE-----\n${der.toString("base64").replace(/(.{64})/g, "$1\n").replace(/\n$/, "")}\n-----END SIGNED MESSAGE-----\n`;
    const tag = (await run("git", ["-C", "repo", "hash-object", "-t", "tag", "-w", "--stdin"], payload + armored)).toString().trim();
    await git("update-ref", "refs/tags/v1.1.1", tag);
    await git("push", "-q", "origin", "main", "v1.1.1");
    v.commit = (await git("rev-parse", "HEAD")).trim();
  },
  /** A file whose blob id (`blob`) the doc's blob examples read. */
  async project_blob(v) {
    await builders.project!(v);
    const actions = [{ action: "create", file_path: "hello.txt", content: "Hello from blob\n" }];
    await call("POST", `/api/v4/projects/${v.project}/repository/commits`, { branch: "main", commit_message: "blob", actions });
    const tree = (await call("GET", `/api/v4/projects/${v.project}/repository/tree`)).body as Array<{ name: string; id: string }>;
    v.blob = tree.find((e) => e.name === "hello.txt")!.id;
  },
  /** A project with one fork (in a group of its own). */
  async project_fork(v) {
    await builders.project!(v);
    await builders.group!(v);
    await call("POST", `/api/v4/projects/${v.project}/fork`, { namespace_id: Number(v.group) });
  },
  /** A fork (`fork`) of a project, in the administrator's namespace under another path. */
  async project_fork_of(v) {
    await builders.project!(v);
    v.fork = String((await call("POST", `/api/v4/projects/${v.project}/fork`, { path: unique("fork"), name: unique("fork") })).body.id);
  },
  async archived_project(v) {
    await builders.project!(v);
    await call("POST", `/api/v4/projects/${v.project}/archive`);
  },
  /** The files the doc's multi-action commit deletes, moves and updates. */
  async project_files(v) {
    await builders.project!(v);
    const actions = ["foo/bar2", "foo/bar4", "foo/bar5"].map((file_path) => ({ action: "create", file_path, content: "old content" }));
    await call("POST", `/api/v4/projects/${v.project}/repository/commits`, { branch: "main", commit_message: "files", actions });
  },
  async group(v) {
    v.group = String((await call("POST", "/api/v4/groups", { name: "Doc group", path: unique("doc") })).body.id);
  },
  /** A public project and a public group: anyone signed in may ask to join them. */
  async public_project(v) {
    v.project = String((await call("POST", "/api/v4/projects", { name: unique("doc"), visibility: "public" })).body.id);
  },
  async public_group(v) {
    v.group = String((await call("POST", "/api/v4/groups", { name: "Doc group", path: unique("doc"), visibility: "public" })).body.id);
  },
  /** A user (`user`) whose request to join the public project is pending. */
  async project_access_request(v) {
    await builders.public_project!(v);
    await requestAccessAs(v, `/api/v4/projects/${v.project}/access_requests`);
  },
  async group_access_request(v) {
    await builders.public_group!(v);
    await requestAccessAs(v, `/api/v4/groups/${v.group}/access_requests`);
  },
  /** The project shared with the group at Developer. */
  async project_share(v) {
    await builders.project!(v);
    await builders.group!(v);
    await call("POST", `/api/v4/projects/${v.project}/share`, { group_id: Number(v.group), group_access: 30 });
  },
  /** `project` and `other_project`, whose member `user` the doc imports into `project`. */
  async two_projects(v) {
    await builders.project_member!(v);
    v.other_project = v.project!;
    await builders.project!(v);
  },
  /** `group` and `other_group`, the group it is (to be) shared with. */
  async two_groups(v) {
    await builders.group!(v);
    v.other_group = String((await call("POST", "/api/v4/groups", { name: "H5bp", path: unique("h5bp") })).body.id);
  },
  async group_share(v) {
    await builders.two_groups!(v);
    await call("POST", `/api/v4/groups/${v.group}/share`, { group_id: Number(v.other_group), group_access: 30 });
  },
  /** The doc's `my-group`, a subgroup of `group`. */
  async my_group(v) {
    await builders.group!(v);
    await call("POST", "/api/v4/groups", { name: "My group", path: "my-group", parent_id: Number(v.group) });
  },
  async group_project(v) {
    await builders.group!(v);
    v.project = String((await call("POST", "/api/v4/projects", { name: unique("doc"), namespace_id: Number(v.group) })).body.id);
  },
  async project_member(v) {
    await builders.project!(v);
    await builders.user!(v);
    await call("POST", `/api/v4/projects/${v.project}/members`, { user_id: Number(v.user), access_level: 30 });
  },
  async group_member(v) {
    await builders.group!(v);
    await builders.user!(v);
    await call("POST", `/api/v4/groups/${v.group}/members`, { user_id: Number(v.user), access_level: 30 });
  },
  /** A member of `group` with a token of its own (`member_token`). */
  async group_member_token(v) {
    await builders.group_member!(v);
    v.member_token = (await call("POST", `/api/v4/users/${v.user}/personal_access_tokens`, { name: "member", scopes: ["api"] })).body.token;
  },
  /** A user (`user`) who committed to one project of the administrator's. */
  async contributor(v) {
    await builders.project_member!(v);
    const token = (await call("POST", `/api/v4/users/${v.user}/personal_access_tokens`, { name: "c", scopes: ["api"] })).body.token;
    const actions = [{ action: "create", file_path: "contribution.txt", content: "mine" }];
    // On a branch of its own: a Developer may not push to the protected default branch.
    await call("POST", `/api/v4/projects/${v.project}/repository/commits`, { branch: "contribution", start_branch: "main", commit_message: "Contribute", actions }, token);
  },
  async public_snippet(v) {
    const files = [{ file_path: "oconnerrice.rb", content: "puts 'Hello'" }];
    v.snippet = String((await call("POST", "/api/v4/snippets", { title: "Ratione cupiditate et laborum temporibus.", visibility: "public", files })).body.id);
  },
  async snippet(v) {
    const files = [
      { file_path: "test.txt", content: "Hello World snippet" },
      { file_path: "snippet.rb", content: "Hello World snippet" },
    ];
    v.snippet = String((await call("POST", "/api/v4/snippets", { title: "test", visibility: "private", files })).body.id);
  },
  /** A snippet of a project (the doc's project 1, snippet 2), with the files the doc reads. */
  async project_snippet(v) {
    await builders.project!(v);
    const files = [
      { file_path: "add.rb", content: "Hello World snippet" },
      { file_path: "snippet.rb", content: "Hello World snippet" },
    ];
    v.project_snippet = String((await call("POST", `/api/v4/projects/${v.project}/snippets`, { title: "test", description: "Ruby test snippet", visibility: "private", files })).body.id);
  },
  /** A group whose wiki has the pages the doc reads, edits and deletes. */
  async wiki(v) {
    await builders.group!(v);
    for (const [title, content] of [["home", "home page"], ["foo", "Here is an instruction how to deploy this project."]]) {
      await call("POST", `/api/v4/groups/${v.group}/wikis`, { title, content });
    }
  },
  /** A project whose wiki has the pages the doc reads, edits and deletes. */
  async project_wiki(v) {
    await builders.project!(v);
    for (const [title, content] of [["home", "home page"], ["foo", "Here is an instruction how to deploy this project."]]) {
      await call("POST", `/api/v4/projects/${v.project}/wikis`, { title, content });
    }
  },
  async project_move(v) {
    await builders.project!(v);
    v.project_move = await moveOf("project", v.project!);
  },
  async snippet_move(v) {
    await builders.snippet!(v);
    v.snippet_move = await moveOf("snippet", v.snippet!);
  },
  async group_move(v) {
    await builders.wiki!(v);
    v.group_move = await moveOf("group", v.group!);
  },
  /** A webhook receiver on loopback that the instance's outbound filter lets through (`hook_url`). */
  async hook_receiver(v) {
    hookReceiver ??= await startReceiver();
    const address = new URL(hookReceiver.url("/")).host;
    const settings = (await call("GET", "/api/v4/application/settings")).body as { outbound_local_requests_whitelist: string[] };
    if (!settings.outbound_local_requests_whitelist.includes(address)) {
      await call("PUT", "/api/v4/application/settings", { outbound_local_requests_whitelist: [...settings.outbound_local_requests_whitelist, address] });
    }
    v.hook_url = hookReceiver.url("/hook");
  },
  /** A project hook posting to the receiver, with error tracking alerts on (`hook`). */
  async project_hook(v) {
    await builders.project!(v);
    await builders.hook_receiver!(v);
    v.hook = String((await call("POST", `/api/v4/projects/${v.project}/hooks`, { url: v.hook_url, error_tracking_events: true })).body.id);
  },
  /** A hook with one delivery in its recent deliveries (its test trigger, `hook_event`). */
  async hook_delivery(v) {
    await builders.project_hook!(v);
    await call("POST", `/api/v4/projects/${v.project}/hooks/${v.hook}/test/error_tracking_events`);
    v.hook_event = String((await call("GET", `/api/v4/projects/${v.project}/hooks/${v.hook}/events`)).body[0].id);
  },
  /** A hook with the custom header `Authorization` and the URL variable `token`, the page's keys. */
  async hook_extras(v) {
    await builders.project_hook!(v);
    await call("PUT", `/api/v4/projects/${v.project}/hooks/${v.hook}/custom_headers/Authorization`, { value: "Bearer secret" });
    await call("PUT", `/api/v4/projects/${v.project}/hooks/${v.hook}/url_variables/token`, { value: "secret" });
  },
  async error_tracking(v) {
    await builders.project!(v);
    await call("PUT", `/api/v4/projects/${v.project}/error_tracking/settings`, { active: true, integrated: true });
  },
  async client_key(v) {
    await builders.error_tracking!(v);
    v.client_key = String((await call("POST", `/api/v4/projects/${v.project}/error_tracking/client_keys`)).body.id);
  },
};

/** A new user (`user`) asks to join, with a token of its own. */
async function requestAccessAs(v: Vars, path: string) {
  await builders.user!(v);
  const token = (await call("POST", `/api/v4/users/${v.user}/personal_access_tokens`, { name: "doc", scopes: ["api"] })).body.token;
  await call("POST", path, undefined, token);
}

const plural = { project: "projects", snippet: "snippets", group: "groups" } as const;

/** A finished move of the container to `secondary` (the doc's `storage2`). */
async function moveOf(kind: keyof typeof plural, id: string): Promise<string> {
  const move = (await call("POST", `/api/v4/${plural[kind]}/${id}/repository_storage_moves`, { destination_storage_name: "secondary" })).body;
  await waitForMove(rt, kind, move.id);
  return String(move.id);
}

// ── replay ─────────────────────────────────────────────────────────────────────────────────────

/** Dotted paths of every key the doc's example shows (an array's first element stands for all). */
function keyPaths(value: unknown, prefix = ""): string[] {
  if (Array.isArray(value)) return value.length ? keyPaths(value[0], prefix) : [];
  if (value === null || typeof value !== "object") return [];
  return Object.entries(value).flatMap(([k, v]) => [`${prefix}${k}`, ...keyPaths(v, `${prefix}${k}.`)]);
}

function at(value: unknown, path: string): { found: boolean; value?: unknown } {
  let cur: unknown = Array.isArray(value) ? value[0] : value;
  for (const part of path.split(".")) {
    if (Array.isArray(cur)) cur = cur[0];
    if (cur === null || typeof cur !== "object" || !(part in cur)) return { found: false };
    cur = (cur as Record<string, unknown>)[part];
  }
  return { found: true, value: cur };
}

async function replay(example: Example) {
  rt = await runtimeFor(example.offering ?? "self-managed");
  const vars: Vars = { token: rt.token, in_a_month: new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10) };
  for (const name of example.given) await builders[name]!(vars);
  let line = example.curl;
  for (const [literal, template] of Object.entries(example.substitute ?? {})) line = line.split(literal).join(template);
  line = line
    .replace(/<your_access_token>|<your-token>/g, "{token}")
    .replace(/\{(\w+)\}/g, (_, name: string) => vars[name] ?? `{${name}}`)
    .replace(/https:\/\/gitlab\.example\.com/g, rt.baseUrl);
  const req = curlRequest(line, example.files);
  const res = await fetch(req.url, { method: req.method, headers: req.headers, body: req.body });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, body: text && res.headers.get("content-type")?.includes("json") ? JSON.parse(text) : text };
}

/** One runtime per offering, started when an example first needs it. */
const runtimes = new Map<string, IsolatedRuntime>();
async function runtimeFor(offering: string) {
  if (!runtimes.has(offering)) runtimes.set(offering, await startIsolatedRuntime({ offering }));
  return runtimes.get(offering)!;
}
beforeAll(async () => {
  await runtimeFor("self-managed");
});
afterAll(async () => {
  await hookReceiver?.close();
  for (const folder of signingFolders) {
    execFileSync("gpgconf", ["--kill", "gpg-agent"], { env: { PATH: process.env.PATH, GNUPGHOME: join(folder, "gnupg") } });
    rmSync(folder, { recursive: true, force: true });
  }
  for (const runtime of runtimes.values()) await runtime.stop();
});

describe("GitLab's documentation examples", () => {
  it.each(fixture.examples.map((e) => [`${e.route} (${e.section})`, e] as const))("%s", async (_, example) => {
    const res = await replay(example);
    if (example.deviation) {
      expect(res.status, res.text).toBe(example.deviation.status);
      return;
    }
    expect(res.status, res.text).toBe(example.status);
    if (typeof example.response === "string") expect(res.body).toBe(example.response);
    expect((example.headers ?? []).filter((h) => !res.headers.has(h)), "headers absent").toEqual([]);
    const missing = new Set(example.missing ?? []);
    if (missing.size) expect(example.differences, "a missing key needs its reason").toBeTruthy();
    const paths = keyPaths(example.response).filter((p) => ![...missing].some((m) => p.startsWith(`${m}.`)));
    expect(paths.filter((p) => !missing.has(p) && !at(res.body, p).found), `keys absent from ${res.text}`).toEqual([]);
    expect(paths.filter((p) => missing.has(p) && at(res.body, p).found), "keys listed as missing but returned").toEqual([]);
    // The doc's names the replay replaced (a storage name, …) are replaced in its values too.
    const literal = Object.entries(example.substitute ?? {}).filter(([, to]) => !to.includes("{"));
    const documented = JSON.parse(literal.reduce((json, [from, to]) => json.split(from).join(to), JSON.stringify(example.response)));
    for (const path of example.fixed ?? []) expect(at(res.body, path).value, path).toEqual(at(documented, path).value);
  });
});

describe("the fixture", () => {
  const apiRoutes = routes.filter((r) => r.path.startsWith("/api/v4/")).map((r) => `${r.method} ${r.path}`);

  it("covers every /api/v4 route: a doc example, or a reason why GitLab documents none", () => {
    const covered = new Set([...fixture.examples, ...fixture.undocumented].map((e) => e.route));
    expect(apiRoutes.filter((r) => !covered.has(r))).toEqual([]);
    // …and names only routes that exist, once.
    expect([...covered].filter((r) => !apiRoutes.includes(r))).toEqual([]);
    expect(fixture.examples.length + fixture.undocumented.length).toBe(covered.size);
  });

  it("lists the hosted offering's examples last: its runtime, once started, is the one in-process handlers reach", () => {
    const offerings = fixture.examples.map((e) => e.offering ?? "self-managed");
    expect(offerings.slice(offerings.indexOf("hosted")).every((o) => o === "hosted")).toBe(true);
  });

  it("sends what curl sends", async () => {
    const json = curlRequest(`curl --request POST --header "Content-Type: application/json" --data '{"a": "b c"}' "https://h/x?y=1"`);
    expect(json).toEqual({ method: "POST", url: "https://h/x?y=1", headers: { "Content-Type": "application/json" }, body: '{"a": "b c"}' });
    const form = curlRequest(`curl --data "name=mytoken" --data "scopes[]=api" \\\n  "https://h/u"`);
    expect(form).toMatchObject({ method: "POST", body: "name=mytoken&scopes[]=api", headers: { "Content-Type": "application/x-www-form-urlencoded" } });
    expect(curlRequest(`curl --request PUT --header "PRIVATE-TOKEN: t" --url "https://h/s?active=true"`)).toMatchObject({ method: "PUT", url: "https://h/s?active=true", headers: { "PRIVATE-TOKEN": "t" } });
    expect(curlRequest(`curl --head --header "PRIVATE-TOKEN: t" --url "https://h/f"`).method).toBe("HEAD");
    expect(curlRequest(`curl -d @s.json https://h/s`, { "s.json": { t: 1 } }).body).toBe('{"t":1}');
    const upload = curlRequest(`curl --request PUT --form "avatar=@images/a.png" --form "x=y" https://h/u`, { "images/a.png": Buffer.from("png").toString("base64") }).body as FormData;
    expect([(upload.get("avatar") as File).name, (upload.get("x") as string)]).toEqual(["a.png", "y"]);
    expect(Buffer.from(await (upload.get("avatar") as File).arrayBuffer()).toString()).toBe("png");
    expect(curlRequest(`curl --header "PRIVATE-TOKEN: t" --remote-header-name --remote-name "https://h/a"`)).toMatchObject({ method: "GET", url: "https://h/a" });
  });
});
