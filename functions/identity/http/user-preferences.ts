/**
 * GitLab's `GET`/`PUT /user/preferences`: the caller's diff-view preferences, one item beside the
 * user, GitLab's defaults until first set. `PUT` takes at least one of the three flags and keeps the
 * others. `pass_user_identities_to_ci_jwt` is stored and shown: there is no CI here to pass it to.
 */
import * as z from "zod/mini";
import { defineEndpoint, type Endpoint } from "../../platform/http/endpoint.js";
import { paramError } from "../../platform/http/errors.js";
import { bool } from "../../platform/http/params.js";
import { getItem, putItem } from "../../platform/db/table.js";
import { userPreferencesKey } from "../domain/keys.js";

const FLAGS = ["view_diffs_file_by_file", "show_whitespace_in_diffs", "pass_user_identities_to_ci_jwt"] as const;
type Preferences = Record<(typeof FLAGS)[number], boolean>;
const DEFAULTS: Preferences = { view_diffs_file_by_file: false, show_whitespace_in_diffs: true, pass_user_identities_to_ci_jwt: false };

async function preferencesOf(userId: number): Promise<Preferences> {
  const item = await getItem<Partial<Preferences>>(userPreferencesKey(userId).pk, userPreferencesKey(userId).sk, false);
  return Object.fromEntries(FLAGS.map((f) => [f, item?.[f] ?? DEFAULTS[f]])) as Preferences;
}

/** GitLab's `UserPreferences` entity (its `id` is the preference record's: here the user's). */
const view = (userId: number, p: Preferences) => ({ id: userId, user_id: userId, ...p });

export const getPreferences = (): Endpoint =>
  defineEndpoint({ summary: "Get your user preferences", access: "read_user" }, async ({ principal }) => view(principal.user.id, await preferencesOf(principal.user.id)));

export const putPreferences = (): Endpoint =>
  defineEndpoint(
    { summary: "Update your user preferences", access: "write", body: z.object(Object.fromEntries(FLAGS.map((f) => [f, z.optional(bool())])) as Record<(typeof FLAGS)[number], z.ZodMiniOptional<ReturnType<typeof bool>>>) },
    async ({ principal, body }) => {
      if (FLAGS.every((f) => body[f] === undefined)) throw paramError(`${FLAGS.join(", ")} are missing, at least one parameter must be provided`);
      const next = { ...(await preferencesOf(principal.user.id)), ...Object.fromEntries(FLAGS.filter((f) => body[f] !== undefined).map((f) => [f, body[f]])) };
      await putItem({ ...userPreferencesKey(principal.user.id), type: "user-preferences", ...next });
      return view(principal.user.id, next);
    },
  );
