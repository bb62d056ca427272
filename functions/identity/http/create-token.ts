import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { positiveInt } from "../../platform/http/params.js";
import { notFound, validationError } from "../../platform/http/errors.js";
import { findUser } from "../domain/users.js";
import { issueToken, TOKEN_SCOPES, tokenView } from "../domain/tokens.js";
import { expiryProblem } from "./token-expiry.js";

/** `expires_at` must be a day still ahead and within the maximum lifetime (`token-expiry.ts`). */
function checkExpiry(expiresAt: string | undefined): void {
  const problem = expiryProblem(expiresAt);
  if (problem) throw validationError({ expires_at: [problem] });
}

export const endpoint = defineEndpoint(
  {
    summary: "Create a personal access token for a user (admin)",
    access: "write",
    admin: true,
    status: 201,
    params: z.object({ user_id: positiveInt() }),
    body: z.object({
      name: z.string().check(z.minLength(1), z.maxLength(255)),
      scopes: z.union([z.array(z.enum(TOKEN_SCOPES)).check(z.minLength(1)), z.pipe(z.enum(TOKEN_SCOPES), z.transform((s) => [s]))]),
      expires_at: z.optional(z.iso.date()),
      description: z.optional(z.string().check(z.maxLength(255))),
    }),
  },
  async ({ params, body }) => {
    checkExpiry(body.expires_at);
    const user = await findUser(params.user_id);
    if (!user) throw notFound("User");
    const { record, token } = await issueToken({
      userId: user.id,
      name: body.name,
      scopes: body.scopes,
      expiresAt: body.expires_at ?? null,
      description: body.description,
    });
    return tokenView(record, token);
  },
);
export const handler = lambda(endpoint);
