/**
 * GitLab's `POST /personal_access_tokens/:id/rotate` and `…/self/rotate`: revoke the token and issue
 * its successor (200 with the new token), expiring after a week unless `expires_at` says otherwise.
 * A revoked token presented to either route is GitLab's reuse detection: the 401 also revokes the
 * newest token of its family (`token-rotation.ts`).
 */
import * as z from "zod/mini";
import type { Context } from "hono";
import { defineEndpoint, type Endpoint, type Request } from "../../platform/http/endpoint.js";
import { ApiError, badRequest } from "../../platform/http/errors.js";
import { presentedToken, type Principal } from "../domain/auth.js";
import { tokenView, type TokenRecord } from "../domain/tokens.js";
import { revokeFamilyOfLeaked, rotateToken, ROTATED_LIFETIME_DAYS } from "../domain/token-rotation.js";
import { dayFrom, expiryProblem } from "./token-expiry.js";

const body = z.object({ expires_at: z.optional(z.iso.date()) });

/** Rotates `token` for the request (after the caller was allowed to): GitLab's answers. */
export async function rotate(token: TokenRecord, expiresAt: string | undefined) {
  if (token.revoked) throw badRequest("token already revoked");
  const problem = expiryProblem(expiresAt);
  if (problem) throw badRequest(`Expires at ${problem}`);
  const rotated = await rotateToken(token, expiresAt ?? dayFrom(ROTATED_LIFETIME_DAYS));
  if (!rotated) throw badRequest("token already revoked");
  return tokenView(rotated.record, rotated.token);
}

type RotationRequest<P> = Request<P, undefined, z.output<typeof body>, Principal>;

/** A rotation route: its endpoint, and reuse detection around it. */
export function rotationEndpoint<P extends z.core.$ZodType>(
  spec: { summary: string; access: "write" | "self_rotate"; params?: P },
  serve: (req: RotationRequest<z.output<P>>) => Promise<unknown>,
): Endpoint {
  const inner = defineEndpoint({ ...spec, body }, serve as never);
  return {
    spec: inner.spec,
    async run(c: Context) {
      try {
        return await inner.run(c);
      } catch (err) {
        const plain = err instanceof ApiError && err.status === 401 ? presentedToken(c) : undefined;
        if (plain) await revokeFamilyOfLeaked(plain);
        throw err;
      }
    },
  };
}
