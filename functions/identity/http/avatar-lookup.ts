import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { positiveInt } from "../../platform/http/params.js";
import { baseUrl } from "../../platform/http/urls.js";
import { getItem } from "../../platform/db/table.js";
import { emailClaimKey } from "../domain/keys.js";
import { avatarUrl, findUser } from "../domain/users.js";

/**
 * GitLab's `GET /avatar?email=…` (no authentication needed): the avatar URL of the account with
 * that e-mail. GitLab looks accounts up by their public e-mail; users here have none (`public_email`
 * is null), so an account's e-mail is matched only for an administrator and for the caller's own,
 * which reveals nothing they could not read already. Gravatar is not configured and no request
 * leaves the instance for it, so otherwise the answer is GitLab's with Gravatar disabled and no
 * avatar uploaded: a null `avatar_url` (what this service shows for a user without an avatar).
 * `size` is accepted: it only sizes Gravatar and Libravatar images.
 */
export const endpoint = defineEndpoint(
  { summary: "The avatar URL of an account by e-mail", access: "public", query: z.object({ email: z.string().check(z.minLength(1), z.maxLength(255)), size: z.optional(positiveInt()) }) },
  async ({ c, principal, query }) => {
    const own = principal && (principal.user.admin || principal.user.email.toLowerCase() === query.email.toLowerCase());
    const claim = own ? await getItem<{ userId: number }>(emailClaimKey(query.email).pk, emailClaimKey(query.email).sk) : undefined;
    const user = claim ? await findUser(claim.userId) : undefined;
    return { avatar_url: user ? avatarUrl(user, baseUrl(c)) : null };
  },
);
export const handler = lambda(endpoint);
