/** The writes that end a share: its item and its entry in the shared group's `shares`. */
import type { TransactItem } from "../../platform/db/table.js";
import { containerKey, groupShareKey } from "./keys.js";

export function unshareWrites(sharedGroupId: number, withGroupId: number, mustExist: boolean): TransactItem[] {
  return [
    { Delete: { Key: groupShareKey(sharedGroupId, withGroupId), ...(mustExist ? { ConditionExpression: "attribute_exists(pk)" } : {}) } },
    // Never recreates a group deleted meanwhile (an Update without a condition would).
    { Update: { Key: containerKey("group", sharedGroupId), UpdateExpression: "REMOVE shares.#w", ExpressionAttributeNames: { "#w": String(withGroupId) }, ConditionExpression: "attribute_exists(shares)" } },
  ];
}
