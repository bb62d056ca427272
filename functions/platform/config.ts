/**
 * Instance configuration: the named repository storages, the offering and the license tier.
 *
 * Read once per process from `FORGELINE_CONFIG` (a path to a JSON file) or, when that is unset,
 * from `FORGELINE_CONFIG_JSON` (the same JSON inline; this is how `stacks/` passes it to Lambda).
 * Without either, a single local storage called `default` under `FORGELINE_DATA_DIR` is used.
 */
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import * as z from "zod/mini";
import "./zod-messages.js";

/*
 * Every function reads this configuration on its first request, so its schema is built from the zod
 * pieces request schemas use anyway (objects, enums, unions, refinements): a record, a discriminated
 * union, a URL format, defaults and `prettifyError` would add 8 KB to every Lambda bundle for a
 * check whose answers read the same (the storage-name and URL rules below).
 */
const STORAGE_NAME = /^[a-zA-Z0-9_.-]{1,64}$/;

/**
 * `capacityBytes` (optional): the most a storage may hold, as a quota below its file system's free
 * space (each replica of a cluster holds a full copy). Moves are refused when they would not fit.
 */
const capacity = { capacityBytes: z.optional(z.number().check(z.int(), z.positive())) };
const storageSchema = z.union([
  z.strictObject({ kind: z.literal("local"), path: z.string().check(z.minLength(1)), ...capacity }),
  z.strictObject({ kind: z.literal("cluster"), replicas: z.array(z.string().check(z.minLength(1))).check(z.minLength(1)), ...capacity }),
]);

/** Named storages: an object whose every key is a storage name and every value a storage. */
const storagesSchema = z.catchall(z.object({}), storageSchema).check(
  z.refine((storages) => Object.keys(storages).every((name) => STORAGE_NAME.test(name)), "storage names use letters, digits, _ . -"),
);

export const instanceConfigSchema = z.strictObject({
  /** `hosted` (like GitLab.com) or `self-managed`. Integrated error tracking is offered only when hosted. */
  offering: z.optional(z.enum(["self-managed", "hosted"])),
  /** License tier. Group repository moves need `premium` or `ultimate` on a self-managed instance. */
  tier: z.optional(z.enum(["free", "premium", "ultimate"])),
  /** Named storages. Each repository lives on exactly one of them. */
  storages: storagesSchema,
  /** Public base URL used in `Link` headers, DSNs and web URLs when a request carries no usable Host. */
  externalUrl: z.optional(z.string().check(z.refine((url) => URL.canParse(url), "Invalid URL"))),
});

type StorageConfig = z.infer<typeof storageSchema>;

export interface InstanceConfig {
  offering: "self-managed" | "hosted";
  tier: "free" | "premium" | "ultimate";
  storages: Record<string, StorageConfig>;
  externalUrl?: string;
}

/** The configuration `raw` spells, with the defaults for what it leaves out; throws when it is invalid. */
export function parseInstanceConfig(raw: unknown): InstanceConfig {
  const parsed = instanceConfigSchema.safeParse(raw);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => `${issue.path.length ? `${issue.path.join(".")}: ` : ""}${issue.message}`);
    throw new Error(`Invalid instance configuration: ${issues.join("; ")}`);
  }
  const { offering = "self-managed", tier = "free", storages, externalUrl } = parsed.data;
  return { offering, tier, storages: storages as Record<string, StorageConfig>, ...(externalUrl === undefined ? {} : { externalUrl }) };
}

export function dataDir(): string {
  return resolve(process.env.FORGELINE_DATA_DIR ?? ".data");
}

function defaultConfig(): InstanceConfig {
  const root = join(dataDir(), "storages");
  return {
    offering: "self-managed",
    tier: "free",
    storages: { default: { kind: "local", path: join(root, "default") } },
  };
}

let cached: InstanceConfig | undefined;

export function instanceConfig(): InstanceConfig {
  if (cached) return cached;
  const file = process.env.FORGELINE_CONFIG;
  const inline = process.env.FORGELINE_CONFIG_JSON;
  let raw: unknown;
  if (file) raw = JSON.parse(readFileSync(file, "utf8"));
  else if (inline) raw = JSON.parse(inline);
  else return (cached = defaultConfig());
  const parsed = parseInstanceConfig(raw);
  // Relative storage paths are relative to the data folder, so a config file can be moved with it.
  const storages = Object.fromEntries(
    Object.entries(parsed.storages).map(([name, s]) => [
      name,
      s.kind === "local"
        ? { ...s, path: resolve(dataDir(), s.path) }
        : { ...s, replicas: s.replicas.map((p) => resolve(dataDir(), p)) },
    ]),
  );
  return (cached = { ...parsed, storages });
}

/** For tests and the local runtime, which may change the environment before first use. */
export function resetInstanceConfig(): void {
  cached = undefined;
}

export function storageNames(): string[] {
  return Object.keys(instanceConfig().storages);
}
