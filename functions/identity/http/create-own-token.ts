import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { validationError } from "../../platform/http/errors.js";
import { issueToken, tokenView } from "../domain/tokens.js";
import { dayFrom, expiryProblem } from "./token-expiry.js";

const K8S_PROXY = ["k8s_proxy"] as const;

/**
 * GitLab's `POST /user/personal_access_tokens`: a token for the caller itself, limited to the
 * `k8s_proxy` scope (GitLab's rule, so that a token cannot mint a stronger one), expiring at the end
 * of the day unless `expires_at` says otherwise. The agent for Kubernetes is not part of this
 * service, so such a token opens nothing here; the endpoint is served as GitLab documents it.
 */
export const endpoint = defineEndpoint(
  {
    summary: "Create a personal access token for yourself (k8s_proxy scope)",
    access: "write",
    status: 201,
    body: z.object({
      name: z.string().check(z.minLength(1), z.maxLength(255)),
      scopes: z.union([z.array(z.enum(K8S_PROXY)).check(z.minLength(1)), z.pipe(z.enum(K8S_PROXY), z.transform((s) => [s]))]),
      expires_at: z.optional(z.iso.date()),
      description: z.optional(z.string().check(z.maxLength(255))),
    }),
  },
  async ({ principal, body }) => {
    const problem = expiryProblem(body.expires_at);
    if (problem) throw validationError({ expires_at: [problem] });
    const { record, token } = await issueToken({
      userId: principal.user.id,
      name: body.name,
      scopes: body.scopes,
      expiresAt: body.expires_at ?? dayFrom(1),
      description: body.description,
    });
    return tokenView(record, token);
  },
);
export const handler = lambda(endpoint);
