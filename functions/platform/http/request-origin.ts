/**
 * Where a request came from, as GitLab records it on content users create (`user_agent_detail`,
 * for fighting spam and abuse): the `User-Agent` header and the client's address.
 *
 * The address is the one the platform saw, never a header the client sent (`X-Forwarded-For` can
 * be forged): API Gateway's `requestContext.http.sourceIp` on Lambda, the socket's peer in the local
 * server.
 */
import type { Context } from "hono";

export interface RequestOrigin {
  userAgent: string;
  ipAddress: string;
}

interface PlatformEnv {
  /** hono/aws-lambda: the invocation's event. */
  event?: { requestContext?: { http?: { sourceIp?: string } } };
  /** @hono/node-server: the Node request. */
  incoming?: { socket?: { remoteAddress?: string } };
}

export function requestOrigin(c: Context): RequestOrigin {
  const env = (c.env ?? {}) as PlatformEnv;
  const ipAddress = env.event?.requestContext?.http?.sourceIp ?? env.incoming?.socket?.remoteAddress ?? "";
  return { userAgent: (c.req.header("user-agent") ?? "").slice(0, 1024), ipAddress: ipAddress.replace(/^::ffff:/, "") };
}
