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

const storageName = z.string().check(z.regex(/^[a-zA-Z0-9_.-]{1,64}$/, "storage names use letters, digits, _ . -"));

const storageSchema = z.discriminatedUnion("kind", [
  z.strictObject({ kind: z.literal("local"), path: z.string().check(z.minLength(1)) }),
  z.strictObject({ kind: z.literal("cluster"), replicas: z.array(z.string().check(z.minLength(1))).check(z.minLength(1)) }),
]);

export const instanceConfigSchema = z.strictObject({
  /** `hosted` (like GitLab.com) or `self-managed`. Integrated error tracking is offered only when hosted. */
  offering: z._default(z.enum(["self-managed", "hosted"]), "self-managed"),
  /** License tier. Group repository moves need `premium` or `ultimate` on a self-managed instance. */
  tier: z._default(z.enum(["free", "premium", "ultimate"]), "free"),
  /** Named storages. Each repository lives on exactly one of them. */
  storages: z.record(storageName, storageSchema),
  /** Public base URL used in `Link` headers, DSNs and web URLs when a request carries no usable Host. */
  externalUrl: z.optional(z.string().check(z.url())),
});

export type InstanceConfig = z.infer<typeof instanceConfigSchema>;
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
  const parsed = instanceConfigSchema.safeParse(raw);
  if (!parsed.success) {
    throw new Error(`Invalid instance configuration: ${z.prettifyError(parsed.error)}`);
  }
  // Relative storage paths are relative to the data folder, so a config file can be moved with it.
  const storages = Object.fromEntries(
    Object.entries(parsed.data.storages).map(([name, s]) => [
      name,
      s.kind === "local"
        ? { ...s, path: resolve(dataDir(), s.path) }
        : { ...s, replicas: s.replicas.map((p) => resolve(dataDir(), p)) },
    ]),
  );
  return (cached = { ...parsed.data, storages });
}

/** For tests and the local runtime, which may change the environment before first use. */
export function resetInstanceConfig(): void {
  cached = undefined;
}

export function storageNames(): string[] {
  return Object.keys(instanceConfig().storages);
}
