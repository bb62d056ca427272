/**
 * Grouping: which error an event belongs to. The SDK's `fingerprint` wins when given (`{{ default }}`
 * in it stands for the default components, as in Sentry); otherwise GitLab's rule, passed in as
 * `defaults` (exception type + actor + platform, or the message for message events).
 *
 * The error id is derived from the components (52 bits of SHA-256, as GOB's integer `fingerprint`):
 * the consumer never has to read or allocate anything to know which error to count, so one event is
 * one transaction. 52 bits keep it a safe JavaScript integer; within one project a collision needs
 * ~10^7 distinct errors to become likely.
 */
import { createHash } from "node:crypto";

const DEFAULT_TOKEN = /^\{\{\s*default\s*\}\}$/;

export function groupingComponents(fingerprint: unknown, defaults: string[]): string[] {
  if (!Array.isArray(fingerprint)) return defaults;
  const parts = fingerprint.filter((p) => typeof p === "string" || typeof p === "number").map(String);
  if (parts.length === 0) return defaults;
  return parts.flatMap((p) => (DEFAULT_TOKEN.test(p) ? defaults : [p]));
}

export function errorIdOf(projectId: number, components: string[]): number {
  const hex = createHash("sha256").update(JSON.stringify([projectId, ...components])).digest("hex");
  // 13 hex digits = 52 bits; never 0 so ids are always truthy positive integers.
  return parseInt(hex.slice(0, 13), 16) || 1;
}

export const groupingOf = (projectId: number, fingerprint: unknown, defaults: string[]) => errorIdOf(projectId, groupingComponents(fingerprint, defaults));
