/**
 * GitLab's impersonation tokens (`/users/:user_id/impersonation_tokens`, admin only): personal access
 * tokens an administrator issues to act as a user, stored and checked like any token (hashed; a
 * blocked or deleted user's stop working) and listed apart from the user's own. Revoking answers 204
 * and keeps the token listed as inactive.
 */
import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { ApiError, notFound } from "../../platform/http/errors.js";
import { positiveInt } from "../../platform/http/params.js";
import { queryAll, GSI1 } from "../../platform/db/table.js";
import { tokensOfUserIndex } from "../domain/keys.js";
import { findUser } from "../domain/users.js";
import { isUsable, issueToken, revokeToken, TOKEN_SCOPES, tokenView, type TokenRecord } from "../domain/tokens.js";
import { userParams } from "./user-schemas.js";

const tokenParams = z.object({ user_id: positiveInt(), impersonation_token_id: positiveInt() });

async function userOr404(id: number) {
  const user = await findUser(id);
  if (!user) throw notFound("User");
  return user;
}

async function impersonationTokensOf(userId: number): Promise<TokenRecord[]> {
  const all = await queryAll<TokenRecord>({ index: GSI1, pk: tokensOfUserIndex(userId, 0).gsi1pk, ascending: true });
  return all.filter((t) => t.impersonation);
}

async function tokenOr404(userId: number, id: number): Promise<TokenRecord> {
  const token = (await impersonationTokensOf(userId)).find((t) => t.id === id);
  if (!token) throw new ApiError(404, { message: "404 Impersonation Token Not Found" });
  return token;
}

export const create = defineEndpoint(
  {
    summary: "Create an impersonation token (admin)",
    access: "write",
    admin: true,
    status: 201,
    params: userParams,
    body: z.object({
      name: z.string().check(z.minLength(1), z.maxLength(255)),
      scopes: z.union([z.array(z.enum(TOKEN_SCOPES)).check(z.minLength(1)), z.pipe(z.enum(TOKEN_SCOPES), z.transform((s) => [s]))]),
      expires_at: z.optional(z.iso.date()),
      description: z.optional(z.string().check(z.maxLength(255))),
    }),
  },
  async ({ params, body }) => {
    const user = await userOr404(params.user_id);
    const { record, token } = await issueToken({
      userId: user.id,
      name: body.name,
      scopes: body.scopes,
      expiresAt: body.expires_at ?? null,
      impersonation: true,
      description: body.description,
    });
    return tokenView(record, token);
  },
);

export const list = defineEndpoint(
  {
    summary: "List a user's impersonation tokens (admin)",
    access: "read",
    admin: true,
    params: userParams,
    query: z.object({ state: z.optional(z.enum(["all", "active", "inactive"])) }),
  },
  async ({ params, query }) => {
    const user = await userOr404(params.user_id);
    const state = query.state ?? "all";
    return (await impersonationTokensOf(user.id)).filter((t) => state === "all" || isUsable(t) === (state === "active")).map((t) => tokenView(t));
  },
);

export const get = defineEndpoint(
  { summary: "One impersonation token (admin)", access: "read", admin: true, params: tokenParams },
  async ({ params }) => tokenView(await tokenOr404((await userOr404(params.user_id)).id, params.impersonation_token_id)),
);

export const revoke = defineEndpoint(
  { summary: "Revoke an impersonation token (admin)", access: "write", admin: true, params: tokenParams },
  async ({ c, params }) => {
    const token = await tokenOr404((await userOr404(params.user_id)).id, params.impersonation_token_id);
    await revokeToken(token.hash);
    return c.body(null, 204);
  },
);
