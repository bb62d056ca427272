import { createServer } from "node:net";

/** A free TCP port on loopback (the OS picks; the tiny race is acceptable for local use). */
export function freePort(host = "127.0.0.1"): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, host, () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Why `host:port` cannot be listened on, as an operator reads it, or undefined when it can. */
export function listenProblem(host: string, port: number): Promise<string | undefined> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", (err: NodeJS.ErrnoException) => resolve(describeListenError(err, host, port)));
    server.listen(port, host, () => server.close(() => resolve(undefined)));
  });
}

export function describeListenError(err: NodeJS.ErrnoException, host: string, port: number): string {
  switch (err.code) {
    case "EADDRINUSE":
      return `port ${port} on ${host} is already in use by another program`;
    case "EACCES":
      return `this user may not listen on port ${port} on ${host} (ports below 1024 need privileges)`;
    case "EADDRNOTAVAIL":
    case "ENOTFOUND":
      return `${host} is not an address of this machine`;
    default:
      return `cannot listen on ${host}:${port} (${err.code ?? err.message})`;
  }
}
