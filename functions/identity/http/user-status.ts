/**
 * GitLab's user status routes (`users.md`): `GET /user/status`, `PUT`/`PATCH /user/status` (the
 * caller's own) and `GET /users/:id_or_username/status` (anyone's, without authentication).
 * `PUT` clears what it is not given; `PATCH` changes only what it is given (an explicit null clears
 * a field). A message is at most 100 characters; an emoji is a name (letters, digits, `_`, `+`, `-`)
 * and is not checked against GitLab's emoji list.
 */
import * as z from "zod/mini";
import { defineEndpoint, type Endpoint } from "../../platform/http/endpoint.js";
import { notFound } from "../../platform/http/errors.js";
import { findUser, findUserByUsername } from "../domain/users.js";
import { CLEAR_STATUS_AFTER, clearAt, findStatus, setStatus, statusView, type ClearStatusAfter } from "../domain/user-status.js";

export const getOwnStatus = (): Endpoint =>
  defineEndpoint({ summary: "Get your user status", access: "read_user" }, async ({ principal }) => statusView(await findStatus(principal.user.id)));

export const getUserStatus = (): Endpoint =>
  defineEndpoint(
    { summary: "Get the status of a user", access: "public", params: z.object({ user_id: z.string().check(z.minLength(1), z.maxLength(255)) }) },
    async ({ params }) => {
      const user = /^\d+$/.test(params.user_id) ? await findUser(Number(params.user_id)) : await findUserByUsername(params.user_id);
      if (!user) throw notFound("User");
      return statusView(await findStatus(user.id));
    },
  );

const statusBody = z.object({
  emoji: z.optional(z.nullable(z.string().check(z.maxLength(64), z.regex(/^[A-Za-z0-9_+-]*$/)))),
  message: z.optional(z.nullable(z.string().check(z.maxLength(100)))),
  availability: z.optional(z.nullable(z.enum(["not_set", "busy"]))),
  clear_status_after: z.optional(z.nullable(z.enum(Object.keys(CLEAR_STATUS_AFTER) as [ClearStatusAfter, ...ClearStatusAfter[]]))),
});

export const setOwnStatus = (method: "PUT" | "PATCH"): Endpoint =>
  defineEndpoint({ summary: "Set your user status", access: "write", body: statusBody }, async ({ principal, body }) => {
    const current = method === "PATCH" ? await findStatus(principal.user.id) : undefined;
    const pick = <K extends "emoji" | "message" | "availability">(k: K) => (body[k] !== undefined ? body[k] : (current?.[k] ?? null));
    const clearStatusAt = body.clear_status_after ? clearAt(body.clear_status_after) : body.clear_status_after === null || method === "PUT" ? null : (current?.clearStatusAt ?? null);
    return statusView(await setStatus(principal.user.id, { emoji: pick("emoji"), message: pick("message"), availability: pick("availability"), clearStatusAt }));
  });
