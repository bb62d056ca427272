/**
 * Where isolated mode points a function's SDK for services it is not linked to: a loopback endpoint
 * that answers every call with AccessDeniedException, as IAM answers a role without the permission
 * (not retried by the SDK). Without it the SDK would fall back to the public AWS endpoint.
 */
import { createServer, type Server } from "node:http";

export interface DeniedEndpoint {
  url: string;
  /** Calls refused so far, as `<service>:<Action>` (e.g. `sqs:SendMessage`). */
  refused: string[];
  stop(): Promise<void>;
}

const servicePrefix: Record<string, string> = { AmazonSQS: "sqs", AWSStepFunctions: "states", DynamoDB_20120810: "dynamodb" };

export async function startDeniedEndpoint(): Promise<DeniedEndpoint> {
  const refused: string[] = [];
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      const [service = "unknown", action = "unknown"] = String(req.headers["x-amz-target"] ?? "").split(".");
      const permission = `${servicePrefix[service] ?? service}:${action}`;
      refused.push(permission);
      const body = JSON.stringify({
        __type: "com.amazon.coral.service#AccessDeniedException",
        message: `User is not authorized to perform: ${permission} (the function has no link to this resource)`,
      });
      res.writeHead(400, { "content-type": "application/x-amz-json-1.0", "x-amzn-errortype": "AccessDeniedException", "x-amzn-requestid": "denied" });
      res.end(body);
    });
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    refused,
    stop: () => new Promise((ok) => server.close(() => ok())),
  };
}
