/**
 * A webhook receiver on loopback: records every request it gets (headers and JSON body) and answers
 * 200, or 500 to the next requests at a path told to fail, or nothing at all to the next request at a
 * path told to hold it (the sender waits until it gives up or dies).
 */
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: any;
  /** The status it was answered with; 0 while held. */
  answered: number;
}

export async function startReceiver() {
  const received: Received[] = [];
  const failing = new Map<string, number>();
  const holding = new Set<string>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const path = req.url ?? "";
      const left = failing.get(path) ?? 0;
      if (left > 0) failing.set(path, left - 1);
      const held = left === 0 && holding.delete(path);
      const status = left > 0 ? 500 : 200;
      let body: unknown = null;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      } catch {
        body = Buffer.concat(chunks).toString("utf8");
      }
      received.push({ path, headers: req.headers, body, answered: held ? 0 : status });
      if (held) return;
      res.writeHead(status, { "content-type": "text/plain" }).end(status === 200 ? "ok" : "receiver down");
    });
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  const port = (server.address() as AddressInfo).port;
  return {
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    received,
    /** Requests to one hook's path. */
    at: (path: string) => received.filter((r) => r.path === path),
    /** The next `n` requests at `path` get a 500. */
    failNext(path: string, n: number) {
      failing.set(path, n);
    },
    /** The next request at `path` that is not told to fail gets no answer. */
    holdNext(path: string) {
      holding.add(path);
    },
    close: () =>
      new Promise<void>((ok) => {
        server.close(() => ok());
        server.closeAllConnections(); // held requests too
      }),
  };
}
