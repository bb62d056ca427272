/**
 * THE outbound HTTP client for every request to a URL a user supplied (today the third-party error
 * tracker). It checks the URL with `policy.ts`, then connects to exactly the address it checked —
 * the socket never resolves the name again, while the Host header and TLS server name stay the
 * URL's. Redirects are never followed: a 3xx is answered as it is.
 *
 * Tests replace the connector (`useConnector`): its `lookup` stands in for DNS and its `send` may
 * record a request instead of connecting, so filters for private or public addresses are tested
 * without traffic leaving the machine.
 */
import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import { lookup as dnsLookup } from "node:dns/promises";
import { Readable } from "node:stream";
import { BlockedUrlError, checkUrl, UNRESOLVED_HOST, type CheckedTarget, type OutboundPolicy, type ResolvedAddress } from "./policy.js";

export interface OutboundRequest {
  method: "GET" | "PUT" | "POST" | "DELETE" | "PATCH";
  headers?: Record<string, string>;
  body?: string;
  signal?: AbortSignal;
}

export interface Connector {
  lookup(hostname: string): Promise<ResolvedAddress[]>;
  /** Sends `init` to `target.address` only. */
  send(target: CheckedTarget, init: OutboundRequest): Promise<Response>;
}

const toHeaders = (res: IncomingMessage) => {
  const headers = new Headers();
  for (let i = 0; i < res.rawHeaders.length; i += 2) headers.append(res.rawHeaders[i]!, res.rawHeaders[i + 1]!);
  return headers;
};

/** Node's http(s) with the socket pinned to the checked address. */
export const directConnector: Connector = {
  async lookup(hostname) {
    const found = await dnsLookup(hostname, { all: true, verbatim: true });
    return found.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
  },
  send(target, init) {
    const { url } = target;
    const isTls = url.protocol === "https:";
    const literalHost = target.address === target.hostname;
    return new Promise<Response>((resolve, reject) => {
      const req = (isTls ? httpsRequest : httpRequest)(
        {
          host: target.address,
          family: target.family,
          port: target.port,
          path: `${url.pathname}${url.search}`,
          method: init.method,
          // The URL's host, not the address: virtual hosts and certificates are by name.
          headers: { ...init.headers, Host: url.host },
          servername: isTls && !literalHost ? target.hostname : undefined,
          signal: init.signal,
        },
        (res) => {
          const status = res.statusCode ?? 502;
          const empty = status === 204 || status === 205 || status === 304;
          if (empty) res.resume();
          try {
            resolve(new Response(empty ? null : (Readable.toWeb(res) as ReadableStream), { status, statusText: res.statusMessage, headers: toHeaders(res) }));
          } catch (err) {
            res.destroy();
            reject(err);
          }
        },
      );
      req.on("error", reject);
      // As bytes: with a string body Node writes the headers in the body's encoding (UTF-8), which
      // would encode again a header value that already holds UTF-8 bytes (a hook token beyond ASCII).
      req.end(init.body === undefined ? undefined : Buffer.from(init.body, "utf8"));
    });
  },
};

let connector: Connector = directConnector;

/** Replaces the connector (tests); returns a function that restores the previous one. */
export function useConnector(next: Connector): () => void {
  const previous = connector;
  connector = next;
  return () => {
    connector = previous;
  };
}

/** Checks `url` against `policy` (throws `BlockedUrlError`) and sends the request to the checked address. */
export async function outboundFetch(url: string, init: OutboundRequest, policy: OutboundPolicy): Promise<Response> {
  const active = connector;
  const target = await checkUrl(url, policy, (host) => active.lookup(host));
  return active.send(target, init);
}

/**
 * Only the check (with the same resolution), for validating a URL before it is stored.
 * `acceptUnresolved`: a host that does not resolve passes, as GitLab validates webhook URLs without
 * DNS rebinding protection (`AddressableUrlValidator`); the request is checked again when it is sent,
 * and refused then if the host still does not resolve. A host that resolves is judged as always.
 */
export async function checkOutboundUrl(url: string, policy: OutboundPolicy, opts: { acceptUnresolved?: boolean } = {}): Promise<void> {
  const active = connector;
  try {
    await checkUrl(url, policy, (host) => active.lookup(host));
  } catch (err) {
    if (opts.acceptUnresolved && err instanceof BlockedUrlError && err.reason === UNRESOLVED_HOST) return;
    throw err;
  }
}
