/**
 * The storage mapping of restore (`old=new`) on its own: parsing, refusing mappings that would leave
 * a repository on a storage this instance lacks (before anything is written), and rewriting items.
 * The instance configuration is the shared test runtime's (default, secondary, cluster).
 */
import { describe, it, expect } from "vitest";
import { checkMapping, parseMapping, rewriteItem } from "../../functions/backup/mapping.js";
import { BackupError } from "../../functions/backup/errors.js";

describe("restore's storage mapping", () => {
  it("parses old=new pairs and rejects anything else with a hint", () => {
    expect(parseMapping(["default=cluster", "secondary=cluster"])).toEqual({ default: "cluster", secondary: "cluster" });
    expect(() => parseMapping(["default"])).toThrow(/not a storage mapping; write old=new/);
    expect(() => parseMapping(["a=b=c"])).toThrow(BackupError);
    expect(() => parseMapping(["a=b", "a=c"])).toThrow(/mapped twice/);
  });

  it("refuses storages the archive or this instance does not have", () => {
    expect(() => checkMapping({}, ["default", "old"], ["default", "old"])).toThrow(/this instance has no storage named old .*map each with old=new, e.g. old=default/);
    expect(() => checkMapping({ nope: "cluster" }, ["default"], ["default"])).toThrow(/the archive has no storage named nope/);
    expect(() => checkMapping({ old: "cluster" }, ["default", "old"], ["default", "old"])).not.toThrow();
  });

  it("rewrites a container's storage and storage-index key, and moves the storage weights", () => {
    const project = { pk: { S: "PROJECT#7" }, sk: { S: "PROJECT" }, storage: { S: "default" }, gsi2pk: { S: "STORAGE#default#project" }, gsi2sk: { S: "000000000007" } };
    expect(rewriteItem(project, { default: "cluster" })).toEqual({ ...project, storage: { S: "cluster" }, gsi2pk: { S: "STORAGE#cluster#project" } });
    expect(rewriteItem(project, { secondary: "cluster" })).toEqual(project);

    const move = { pk: { S: "MOVE#project#1" }, sk: { S: "MOVE" }, sourceStorage: { S: "default" }, destinationStorage: { S: "secondary" } };
    expect(rewriteItem(move, { default: "cluster" })).toEqual(move); // history keeps its names

    const settings = { pk: { S: "SETTINGS" }, sk: { S: "APPLICATION" }, repository_storages_weighted: { M: { default: { N: "80" }, secondary: { N: "20" }, cluster: { N: "0" } } } };
    expect(rewriteItem(settings, { default: "cluster" }).repository_storages_weighted).toEqual({ M: { cluster: { N: "80" }, secondary: { N: "20" }, default: { N: "0" } } });
  });
});
