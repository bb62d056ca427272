/**
 * The event shapes isolated mode invokes functions with, as AWS builds them: API Gateway HTTP API
 * payload 2.0 for routes (the function URL payload is the same format, with `routeKey: "$default"`),
 * and the answer (`statusCode`, `headers`, `cookies`, `body`, `isBase64Encoded`) back to a Response.
 */
import { randomUUID } from "node:crypto";

/** Bodies API Gateway passes as text; anything else (gzip, octet-stream, an encoded body) is base64. */
const TEXTUAL = /^(text\/|application\/(json|x-www-form-urlencoded|xml|javascript)|[^;]*\+json)/i;

export interface HttpApiEventOptions {
  /** `GET /api/v4/projects/{id}`, or `$default` for a function URL. */
  routeKey: string;
  pathParameters?: Record<string, string>;
  sourceIp?: string;
}

export async function httpApiEvent(request: Request, opts: HttpApiEventOptions) {
  const url = new URL(request.url);
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => {
    headers[name] = name in headers ? `${headers[name]},${value}` : value;
  });
  // HTTP API moves cookies to their own field.
  const cookies = headers.cookie?.split(/;\s*/).filter(Boolean);
  delete headers.cookie;
  // And tells the function how the client reached it, which the event's URL (always https in
  // hono/aws-lambda) does not: the scheme and port the local server was reached on, unless a proxy
  // in front of it said so already (one process reads the same headers), and the client's address.
  const scheme = url.protocol.slice(0, -1);
  const sourceIp = opts.sourceIp ?? "127.0.0.1";
  headers["x-forwarded-proto"] ??= scheme;
  headers["x-forwarded-port"] ??= url.port || (scheme === "https" ? "443" : "80");
  headers["x-forwarded-for"] = headers["x-forwarded-for"] ? `${headers["x-forwarded-for"]}, ${sourceIp}` : sourceIp;
  const raw = request.method === "GET" || request.method === "HEAD" ? Buffer.alloc(0) : Buffer.from(await request.arrayBuffer());
  const textual = TEXTUAL.test(headers["content-type"] ?? "") && !headers["content-encoding"];
  const query: Record<string, string> = {};
  url.searchParams.forEach((value, name) => {
    query[name] = name in query ? `${query[name]},${value}` : value;
  });
  const now = new Date();
  return {
    version: "2.0",
    routeKey: opts.routeKey,
    rawPath: url.pathname,
    rawQueryString: url.search.slice(1),
    ...(cookies?.length ? { cookies } : {}),
    headers,
    ...(Object.keys(query).length ? { queryStringParameters: query } : {}),
    ...(opts.pathParameters && Object.keys(opts.pathParameters).length ? { pathParameters: opts.pathParameters } : {}),
    requestContext: {
      accountId: "000000000000",
      apiId: "local",
      domainName: url.host,
      domainPrefix: url.hostname.split(".")[0],
      http: {
        method: request.method,
        path: url.pathname,
        protocol: "HTTP/1.1",
        sourceIp,
        userAgent: headers["user-agent"] ?? "",
      },
      requestId: randomUUID(),
      routeKey: opts.routeKey,
      stage: "$default",
      time: now.toUTCString(),
      timeEpoch: now.getTime(),
    },
    ...(raw.length ? { body: textual ? raw.toString("utf8") : raw.toString("base64"), isBase64Encoded: !textual } : { isBase64Encoded: false }),
  };
}

export interface HttpApiResult {
  statusCode?: number;
  headers?: Record<string, string | number | boolean>;
  multiValueHeaders?: Record<string, Array<string | number | boolean>>;
  cookies?: string[];
  body?: string;
  isBase64Encoded?: boolean;
}

/** The function's answer as API Gateway sends it on (with its `apigw-requestid` header). */
export function httpApiResponse(result: unknown, requestId: string): Response {
  const r = (result ?? {}) as HttpApiResult;
  const headers = new Headers();
  for (const [name, value] of Object.entries(r.headers ?? {})) headers.set(name, String(value));
  for (const [name, values] of Object.entries(r.multiValueHeaders ?? {})) for (const v of values) headers.append(name, String(v));
  for (const cookie of r.cookies ?? []) headers.append("set-cookie", cookie);
  headers.set("apigw-requestid", requestId);
  const status = r.statusCode ?? 200;
  const body = r.body === undefined || status === 204 || status === 304 ? null : r.isBase64Encoded ? Buffer.from(r.body, "base64") : r.body;
  return new Response(body, { status, headers });
}

/** API Gateway's answer when the Lambda invocation itself failed (threw, timed out, crashed). */
/**
 * Lambda's limit on a synchronous invocation's payload (6 MB, counted as 6,291,456 bytes of event
 * JSON). API Gateway's own limit is 10 MB, so on AWS a request between the two never reaches the
 * function, whatever the function's own body limit says.
 */
export const LAMBDA_SYNC_PAYLOAD_BYTES = 6 * 1024 * 1024;

/**
 * Whether the event is over Lambda's limit. The body is nearly all of it, so only an event whose
 * body comes within 1 MiB of the limit is serialised to be measured exactly.
 */
export function exceedsLambdaPayload(event: Readonly<Record<string, unknown>>): boolean {
  if ((typeof event.body === "string" ? event.body.length : 0) < LAMBDA_SYNC_PAYLOAD_BYTES - 1024 * 1024) return false;
  return Buffer.byteLength(JSON.stringify(event)) > LAMBDA_SYNC_PAYLOAD_BYTES;
}

/** API Gateway's answer to a request whose event exceeds Lambda's payload limit. */
export const requestTooLarge = () =>
  new Response(JSON.stringify({ message: "Request Entity Too Large" }), { status: 413, headers: { "content-type": "application/json" } });

export const internalServerError = () =>
  new Response(JSON.stringify({ message: "Internal Server Error" }), { status: 500, headers: { "content-type": "application/json" } });
