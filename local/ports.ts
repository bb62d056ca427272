import { readFileSync } from "node:fs";
import { createServer } from "node:net";

/**
 * A free TCP port on loopback, for a process that will listen on it a moment later (a stand-in, a
 * second runtime). Chosen below the kernel's ephemeral range: a port the OS hands out for listen(0)
 * comes from the range every outgoing connection takes its local port from, so on a busy machine
 * (tests in parallel workers) a connection could take it before the intended owner binds it. Where
 * the range is not known, or leaves no room below it, the OS picks.
 */
export async function freePort(host = "127.0.0.1"): Promise<number> {
  const below = ephemeralRangeStart();
  if (below !== undefined && below > RESERVED_BELOW + 1000) {
    for (let attempt = 0; attempt < 20; attempt++) {
      const port = RESERVED_BELOW + Math.floor(Math.random() * (below - RESERVED_BELOW));
      if ((await listenProblem(host, port)) === undefined) return port;
    }
  }
  return osAssignedPort(host);
}

/** Ports under this are left alone: well-known and commonly configured services live there. */
const RESERVED_BELOW = 10_000;

/** The first port of Linux's ephemeral range; undefined elsewhere. */
export function ephemeralRangeStart(): number | undefined {
  try {
    const [low] = readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/).map(Number);
    return Number.isInteger(low) ? low : undefined;
  } catch {
    return undefined;
  }
}

function osAssignedPort(host: string): Promise<number> {
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
