/**
 * Listening TCP sockets of a process tree, read from /proc as `ss -ltnp` would: the tree's pids
 * (every process whose parent chain reaches the root), their socket inodes (`/proc/<pid>/fd/*` →
 * `socket:[inode]`) and the listening entries of `/proc/<pid>/net/tcp{,6}` with those inodes.
 */
import { readdirSync, readFileSync, readlinkSync } from "node:fs";

export interface Listener {
  pid: number;
  command: string;
  address: string;
  port: number;
}

/** The root and all its descendants. */
export function processTree(root: number): number[] {
  const parent = new Map<number, number>();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // `pid (comm) state ppid …`; comm may hold spaces and parentheses, so split after the last `)`.
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      parent.set(Number(name), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]));
    } catch {
      /* exited meanwhile */
    }
  }
  const tree = [root];
  for (let i = 0; i < tree.length; i++) for (const [pid, ppid] of parent) if (ppid === tree[i] && !tree.includes(pid)) tree.push(pid);
  return tree;
}

function socketInodes(pid: number): Set<string> {
  const inodes = new Set<string>();
  let fds: string[] = [];
  try {
    fds = readdirSync(`/proc/${pid}/fd`);
  } catch {
    return inodes;
  }
  for (const fd of fds) {
    try {
      const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (m) inodes.add(m[1]!);
    } catch {
      /* closed meanwhile */
    }
  }
  return inodes;
}

/** `0100007F` → 127.0.0.1; 32 hex digits → an IPv6 address (each 32-bit word in host byte order, little-endian here). */
export function decodeProcAddress(hex: string): string {
  const bytes = (word: string) => Buffer.from(word, "hex").reverse();
  if (hex.length === 8) return [...bytes(hex)].join(".");
  const all = Buffer.concat([0, 8, 16, 24].map((i) => bytes(hex.slice(i, i + 8))));
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) groups.push(all.readUInt16BE(i).toString(16));
  return groups.join(":");
}

const LISTEN = "0A";

export function listeners(root: number): Listener[] {
  const found: Listener[] = [];
  for (const pid of processTree(root)) {
    const inodes = socketInodes(pid);
    if (!inodes.size) continue;
    let command = "";
    try {
      command = readFileSync(`/proc/${pid}/comm`, "utf8").trim();
    } catch {
      continue;
    }
    for (const table of ["tcp", "tcp6"]) {
      let text = "";
      try {
        text = readFileSync(`/proc/${pid}/net/${table}`, "utf8");
      } catch {
        continue;
      }
      for (const line of text.trim().split("\n").slice(1)) {
        const f = line.trim().split(/\s+/);
        const [addr, port] = f[1]!.split(":");
        if (f[3] === LISTEN && inodes.has(f[9]!)) found.push({ pid, command, address: decodeProcAddress(addr!), port: parseInt(port!, 16) });
      }
    }
  }
  return found;
}

/** 127.0.0.0/8, ::1, and IPv4-mapped loopback (`::ffff:7f00:1`, what Java binds for 127.0.0.1). */
export function isLoopback(address: string): boolean {
  if (/^127\./.test(address)) return true;
  const g = address.split(":").map((x) => parseInt(x, 16));
  if (g.length !== 8) return false;
  if (g.slice(0, 7).every((x) => x === 0) && g[7] === 1) return true;
  return g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff && g[6]! >> 8 === 127;
}
