/**
 * Restore's first pass: the whole archive is read and proven intact before anything is written.
 * Checked: the tar structure (header checksums, zero padding, end marker — `tar-reader.ts`), every
 * entry's size and sha256 against the manifest and the manifest against the entries (nothing
 * missing, nothing extra), the bytes before the manifest (`archive_sha256`), the manifest's own
 * hash, the counts, that every table line is an item, that every repository is a whole one, and
 * what `archive-checks.ts` adds: each repository's entries together and its refs checksum as
 * recorded, every repository on a path of its own, each item once, items and repositories agreeing.
 */
import { createHash, type Hash } from "node:crypto";
import { stat } from "node:fs/promises";
import { checkChecksums, placementProblem, RefFiles, RepositoryRuns, TableIndex } from "./archive-checks.js";
import { ArchiveError, BackupError } from "./errors.js";
import { decodeManifest, FORMAT_MARKER, MANIFEST_PATH, repositoryPrefix, type Manifest, type ManifestEntry } from "./manifest.js";
import { silentProgress, type ProgressSink } from "./progress.js";
import { decodeItem } from "./table-io.js";
import { readTar } from "./tar-reader.js";

const MAX_TABLE_FILE = 256 << 20;
const MAX_MANIFEST = 1 << 30;

/** Archive paths are relative, without `.`/`..`/empty segments, under a known top-level folder. */
export function assertSafeEntryPath(path: string): void {
  const parts = path.split("/");
  const safe = parts.every((p) => p !== "" && p !== "." && p !== ".." && !p.includes("\\") && !p.includes("\0"));
  if (!safe || !["repositories", "table", MANIFEST_PATH].includes(parts[0]!)) throw new ArchiveError(`it holds an unexpected entry ${JSON.stringify(path)}`);
}

async function collect(chunks: AsyncGenerator<Buffer>, limit: number, what: string): Promise<Buffer> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const c of chunks) {
    size += c.length;
    if (size > limit) throw new ArchiveError(`${what} is implausibly large`);
    parts.push(c);
  }
  return Buffer.concat(parts, size);
}

export async function verifyArchive(file: string, progress: ProgressSink = silentProgress): Promise<Manifest> {
  const size = await stat(file).then((s) => s.size, () => {
    throw new BackupError(`${file} does not exist`);
  });
  progress.phase("Verifying archive", size, "bytes");
  // `archive_sha256` of format 2 leaves entry content out (each entry's sha256 covers it); format 1
  // hashed every byte. The first entry's marker says which, before any content is read.
  const structure = createHash("sha256");
  let whole: Hash | undefined = createHash("sha256");
  let before = { structure: structure.copy(), whole: whole.copy() };
  let marked: boolean | undefined;
  let prefix = { structure: "", whole: "" };
  let manifest: Manifest | undefined;
  const seen = new Map<string, ManifestEntry>();
  let itemLines = 0;
  const runs = new RepositoryRuns();
  const table = new TableIndex();
  const checksums = new Map<string, string>();
  let refs: RefFiles | undefined;
  const endRun = async (owner: string | undefined) => {
    if (owner && refs) checksums.set(owner, await refs.checksum());
    refs = undefined;
  };
  const observe = (raw: Buffer, entryStart: boolean, content: boolean) => {
    if (entryStart) before = { structure: structure.copy(), whole: (whole ?? structure).copy() };
    if (!content) structure.update(raw);
    whole?.update(raw);
  };
  for await (const entry of readTar(file, { observe, onProgress: (pos) => progress.update(pos) })) {
    if (marked === undefined) {
      marked = entry.comment === FORMAT_MARKER;
      if (marked) whole = undefined;
    }
    if (manifest) throw new ArchiveError(`the entry ${entry.path} follows manifest.json, which must be last`);
    assertSafeEntryPath(entry.path);
    if (seen.has(entry.path)) throw new ArchiveError(`the entry ${entry.path} appears twice`);
    const { owner, ended } = runs.next(entry.path);
    if (ended) await endRun(ended);
    if (owner) refs ??= new RefFiles();
    if (entry.path === MANIFEST_PATH) {
      prefix = { structure: before.structure.digest("hex"), whole: marked ? "" : before.whole.digest("hex") };
      manifest = decodeManifest(await collect(entry.chunks(), MAX_MANIFEST, "manifest.json"));
      continue;
    }
    const hash = createHash("sha256");
    if (entry.type === "dir") {
      seen.set(entry.path, { path: entry.path, type: "dir", size: 0, sha256: "" });
      continue;
    }
    if (entry.path.startsWith("table/")) {
      const data = await collect(entry.chunks(), MAX_TABLE_FILE, entry.path);
      hash.update(data);
      for (const line of data.toString("utf8").split("\n")) {
        if (!line) continue;
        let item;
        try {
          item = decodeItem(line);
        } catch {
          throw new ArchiveError(`${entry.path} holds a line that is not a table item`);
        }
        table.add(item, entry.path);
        itemLines++;
      }
    } else {
      const inner = owner ? entry.path.slice(owner.length + 1) : "";
      const keep = owner !== undefined && RefFiles.wants(inner, entry.size);
      const parts: Buffer[] = [];
      for await (const chunk of entry.chunks()) {
        hash.update(chunk);
        if (keep) parts.push(chunk);
      }
      if (keep) refs!.add(inner, Buffer.concat(parts));
    }
    seen.set(entry.path, { path: entry.path, type: "file", size: entry.size, sha256: hash.digest("hex") });
  }
  await endRun(runs.end());
  if (!manifest) throw new ArchiveError("manifest.json is missing, so the archive is incomplete (an interrupted backup?)");
  // Entries first: their messages name the damaged entry; the whole-prefix hash then covers the rest.
  checkEntries(manifest, seen);
  checkCounts(manifest, seen, itemLines);
  if (marked !== (manifest.format_version >= 2)) throw new ArchiveError(`the archive's first entry does not carry the marker of format version ${manifest.format_version}`);
  const prefixDigest = manifest.format_version >= 2 ? prefix.structure : prefix.whole;
  if (manifest.archive_sha256 !== prefixDigest) throw new ArchiveError("the bytes before manifest.json do not match its archive_sha256 (a header or padding was altered)");
  // Every byte is authentic from here on; what remains is whether it makes a whole instance.
  checkChecksums(manifest, checksums);
  const misplaced = placementProblem(manifest.repositories);
  if (misplaced) throw new ArchiveError(misplaced);
  table.checkContainers(manifest);
  progress.end();
  return manifest;
}

function checkEntries(manifest: Manifest, seen: Map<string, ManifestEntry>): void {
  const listed = new Set<string>();
  for (const want of manifest.entries) {
    listed.add(want.path);
    const got = seen.get(want.path);
    if (!got) throw new ArchiveError(`the entry ${want.path} listed in the manifest is missing`);
    if (got.type !== want.type) throw new ArchiveError(`the entry ${want.path} is a ${got.type}, the manifest says ${want.type}`);
    if (got.size !== want.size) throw new ArchiveError(`the entry ${want.path} has ${got.size} bytes, the manifest says ${want.size}`);
    if (got.sha256 !== want.sha256) throw new ArchiveError(`the entry ${want.path} fails its sha256 checksum (expected ${want.sha256.slice(0, 12)}…, got ${got.sha256.slice(0, 12)}…)`);
  }
  const extra = [...seen.keys()].find((p) => !listed.has(p));
  if (extra) throw new ArchiveError(`the entry ${extra} is not listed in the manifest`);
}

function checkCounts(manifest: Manifest, seen: Map<string, ManifestEntry>, itemLines: number): void {
  const files = [...seen.values()].filter((e) => e.type === "file");
  const bytes = files.reduce((n, e) => n + e.size, 0);
  const c = manifest.counts;
  if (c.items !== itemLines) throw new ArchiveError(`the table files hold ${itemLines} items, the manifest says ${c.items}`);
  if (c.files !== files.length || c.bytes !== bytes) throw new ArchiveError(`the archive holds ${files.length} files (${bytes} bytes), the manifest says ${c.files} (${c.bytes} bytes)`);
  if (c.repositories !== manifest.repositories.length) throw new ArchiveError("the manifest's repository count does not match its repository list");
  for (const name of manifest.table_files) if (!seen.has(name)) throw new ArchiveError(`the table file ${name} is missing`);
  const owners = new Set(manifest.repositories.map(repositoryPrefix));
  if (owners.size !== manifest.repositories.length) throw new ArchiveError("the manifest lists a repository twice");
  const tableFiles = new Set(manifest.table_files);
  const perRepository = new Map<string, { files: number; bytes: number }>();
  for (const e of seen.values()) {
    if (e.path.startsWith("table/") && !tableFiles.has(e.path)) throw new ArchiveError(`${e.path} is not a listed table file`);
    if (!e.path.startsWith("repositories/")) continue;
    const owner = e.path.split("/").slice(0, 3).join("/");
    if (!owners.has(owner)) throw new ArchiveError(`${e.path} belongs to no listed repository`);
    const tally = perRepository.get(owner) ?? { files: 0, bytes: 0 };
    if (e.type === "file") [tally.files, tally.bytes] = [tally.files + 1, tally.bytes + e.size];
    perRepository.set(owner, tally);
  }
  for (const repo of manifest.repositories) {
    const prefix = repositoryPrefix(repo);
    for (const part of ["HEAD", "objects", "refs"]) {
      if (!seen.has(`${prefix}/${part}`)) throw new ArchiveError(`${repo.kind} ${repo.id}'s repository lacks ${part}, so it is not a whole Git repository`);
    }
    const tally = perRepository.get(prefix) ?? { files: 0, bytes: 0 };
    if (tally.files !== repo.files || tally.bytes !== repo.bytes) throw new ArchiveError(`${repo.kind} ${repo.id}'s repository has a different number of files or bytes than the manifest says`);
  }
}
