/** The instance configuration every function reads: what it accepts, its defaults, and what it refuses. */
import { describe, it, expect } from "vitest";
import { parseInstanceConfig } from "../../functions/platform/config.js";

const storages = {
  default: { kind: "local", path: "storages/default" },
  "cluster_1.a-b": { kind: "cluster", replicas: ["r1", "r2"] },
};

describe("parseInstanceConfig", () => {
  it("accepts both storage kinds and fills in the offering and tier", () => {
    expect(parseInstanceConfig({ storages })).toEqual({ offering: "self-managed", tier: "free", storages });
    expect(parseInstanceConfig({ offering: "hosted", tier: "premium", externalUrl: "https://git.example.edu", storages })).toEqual({
      offering: "hosted",
      tier: "premium",
      externalUrl: "https://git.example.edu",
      storages,
    });
  });

  it.each([
    ["a storage name with a slash", { storages: { "a/b": { kind: "local", path: "x" } } }, /storage names use letters, digits, _ \. -/],
    ["a storage of no known kind", { storages: { s: { kind: "s3", path: "x" } } }, /storages\.s/],
    ["a local storage with replicas", { storages: { s: { kind: "local", path: "x", replicas: ["y"] } } }, /storages\.s/],
    ["a cluster without replicas", { storages: { s: { kind: "cluster", replicas: [] } } }, /storages\.s/],
    ["an external URL that is not one", { storages, externalUrl: "git.example.edu" }, /externalUrl: Invalid URL/],
    ["an unknown tier", { storages, tier: "gold" }, /tier/],
    ["an unknown setting", { storages, colour: "blue" }, /colour/],
    ["no storages", {}, /storages/],
  ])("refuses %s, saying where", (_what, raw, message) => {
    expect(() => parseInstanceConfig(raw)).toThrow(/^Invalid instance configuration: /);
    expect(() => parseInstanceConfig(raw)).toThrow(message);
  });
});
