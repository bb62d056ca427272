/**
 * Opaque list cursors (base64url JSON). A keyset cursor carries the index key to resume from; it is
 * checked against the project and status being listed, so a cursor can never position a Query in
 * another project's range (DynamoDB would reject a foreign start key anyway, with a 500-worthy error).
 */
import { ApiError } from "../../platform/http/errors.js";
import type { SortOrder } from "./read.js";

export interface Cursor {
  /** The sort the cursor belongs to. */
  s: SortOrder;
  /** `n`: the page after; `p`: the page before. */
  d: "n" | "p";
  /** Keyset position (last_seen, first_seen). */
  k?: Record<string, unknown>;
  /** Offset in the in-memory order (frequency). */
  o?: number;
}

export const encodeCursor = (c: Cursor) => Buffer.from(JSON.stringify(c)).toString("base64url");

const invalid = () => new ApiError(400, { message: "Bad Request: Invalid cursor" });

/** `rangePk`: the index partition being listed; `itemSk`: whether a sort key is one of its items'. */
export function decodeCursor(raw: string, sort: SortOrder, rangePk: string, itemSk: (sk: string) => boolean = (sk) => sk === "ERROR"): Cursor {
  let c: Cursor;
  try {
    c = JSON.parse(Buffer.from(raw, "base64url").toString("utf8")) as Cursor;
  } catch {
    throw invalid();
  }
  if (!c || typeof c !== "object" || c.s !== sort || (c.d !== "n" && c.d !== "p")) throw invalid();
  if (sort === "frequency") {
    if (!Number.isInteger(c.o) || c.o! < 0) throw invalid();
    return { s: sort, d: c.d, o: c.o };
  }
  const index = sort === "first_seen" ? "gsi2" : "gsi1";
  const k = c.k ?? {};
  const fields = ["pk", "sk", `${index}pk`, `${index}sk`];
  if (Object.keys(k).length !== 4 || !fields.every((f) => typeof k[f] === "string") || k[`${index}pk`] !== rangePk) throw invalid();
  if (!String(k.pk).startsWith("ETERR#") || !itemSk(String(k.sk))) throw invalid();
  return { s: sort, d: c.d, k };
}
