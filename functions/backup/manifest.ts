/**
 * The manifest: the last entry of an archive (`manifest.json`), describing and checksumming
 * everything before it. It protects itself with `manifest_sha256` (the sha256 of the manifest
 * serialised with that field empty), so a flipped byte anywhere in the archive is detected:
 * entries by their sha256, headers and padding by `archive_sha256`, the manifest by its own hash.
 */
import { createHash } from "node:crypto";
import * as z from "zod/mini";
import "../platform/zod-messages.js";
import { ArchiveError } from "./errors.js";

export const MANIFEST_PATH = "manifest.json";
export const FORMAT = "forgeline-backup" as const;
/**
 * 2: `archive_sha256` covers every byte before the manifest except entry content (which each
 * entry's sha256 covers), so each byte is hashed once; the first entry carries the pax comment
 * `FORMAT_MARKER`, which tells a reader the version before it reaches the manifest.
 * 1: `archive_sha256` covers every byte before the manifest; no marker. Still read.
 */
export const FORMAT_VERSION = 2;
export const READABLE_VERSIONS: readonly number[] = [1, 2];
export const FORMAT_MARKER = `${FORMAT} ${FORMAT_VERSION}`;

/** The container's kind, or `project-wiki` for a project's wiki repository (beside the project's). */
const kind = z.enum(["project", "project-wiki", "snippet", "group"]);
const count = z.number().check(z.int(), z.nonnegative());
const sha = z.string().check(z.regex(/^[0-9a-f]{64}$/));

const repositorySchema = z.object({
  kind,
  id: count,
  storage: z.string().check(z.minLength(1)),
  relative_path: z.string().check(z.minLength(1)),
  /** Gitaly-style checksum of the refs (see hosting/domain/git/checksum.ts); restore must reproduce it. */
  checksum: z.string().check(z.regex(/^[0-9a-f]{40}$/)),
  files: count,
  bytes: count,
});

const entrySchema = z.object({ path: z.string().check(z.minLength(1)), type: z.enum(["file", "dir"]), size: count, sha256: z.union([sha, z.literal("")]) });

export const manifestSchema = z.object({
  format: z.literal(FORMAT),
  format_version: z.number().check(z.int()),
  created_at: z.string(),
  source: z.object({
    table: z.string(),
    storages: z.record(z.string(), z.object({ kind: z.enum(["local", "cluster"]), replicas: count })),
  }),
  counts: z.object({ items: count, repositories: count, files: count, bytes: count, dropped_items: count }),
  table_files: z.array(z.string()),
  repositories: z.array(repositorySchema),
  entries: z.array(entrySchema),
  archive_sha256: sha,
  manifest_sha256: z.union([sha, z.literal("")]),
});

export type Manifest = z.infer<typeof manifestSchema>;
export type RepositoryRecord = z.infer<typeof repositorySchema>;
export type ManifestEntry = z.infer<typeof entrySchema>;

/** Where a repository's files live inside the archive. */
export const repositoryPrefix = (r: Pick<RepositoryRecord, "kind" | "id">) => `repositories/${r.kind}/${r.id}`;
export const tableFileName = (n: number) => `table/items-${String(n).padStart(4, "0")}.jsonl`;

const serialise = (m: Manifest) => JSON.stringify(m, null, 1);

export function encodeManifest(m: Omit<Manifest, "manifest_sha256">): Buffer {
  const unsigned: Manifest = { ...m, manifest_sha256: "" };
  const digest = createHash("sha256").update(serialise(unsigned)).digest("hex");
  return Buffer.from(serialise({ ...unsigned, manifest_sha256: digest }), "utf8");
}

/** Parses and authenticates the manifest's own bytes; the caller checks it against the archive. */
export function decodeManifest(data: Buffer): Manifest {
  let raw: unknown;
  try {
    raw = JSON.parse(data.toString("utf8"));
  } catch {
    throw new ArchiveError("manifest.json is not valid JSON");
  }
  const format = (raw as { format?: unknown; format_version?: unknown } | null) ?? {};
  if (format.format !== FORMAT) throw new ArchiveError("manifest.json does not describe a Forgeline backup");
  if (!READABLE_VERSIONS.includes(format.format_version as number)) {
    throw new ArchiveError(`the archive has format version ${String(format.format_version)}; this restore reads versions ${READABLE_VERSIONS.join(" and ")}`);
  }
  const parsed = manifestSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ArchiveError(`manifest.json is malformed (${issue?.message ?? "invalid"} at ${issue?.path.join(".") || "top level"})`);
  }
  const stated = parsed.data.manifest_sha256;
  const actual = createHash("sha256").update(serialise({ ...(raw as Manifest), manifest_sha256: "" })).digest("hex");
  if (stated !== actual) throw new ArchiveError("manifest.json fails its own checksum");
  return parsed.data;
}
