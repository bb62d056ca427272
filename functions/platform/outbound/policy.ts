/**
 * GitLab's outbound request filter for URLs a user supplies: only http(s), no userinfo, ASCII
 * hosts; the host resolved once, every address it resolves to checked, and the request later sent
 * to the address that was checked (so a DNS answer that changes in between cannot redirect it).
 * The administrator lifts the local-network ban with `allow_local_requests_from_web_hooks_and_services`
 * or for single hosts, addresses, ranges and ports with `outbound_local_requests_whitelist`; the
 * cloud metadata address stays blocked either way.
 */
import { addressBytes, inRange, isMetadataAddress, localCategory, REASONS } from "./addresses.js";

export interface OutboundPolicy {
  allowLocal: boolean;
  /** Entries of `outbound_local_requests_whitelist`: `10.0.0.5`, `10.0.0.0/8`, `[::1]:8080`, `tracker.lan`, `*.corp.example:443`. */
  allowlist: readonly string[];
}

export const DENY_LOCAL: OutboundPolicy = { allowLocal: false, allowlist: [] };

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

export type Lookup = (hostname: string) => Promise<ResolvedAddress[]>;

export const UNRESOLVED_HOST = "Host cannot be resolved or invalid";

/** A refused URL; `reason` is GitLab's text after `URL is blocked: ` (or a field's `is blocked: `). */
export class BlockedUrlError extends Error {
  constructor(readonly reason: string) {
    super(`URL is blocked: ${reason}`);
    this.name = "BlockedUrlError";
  }
}

/** Where a checked request goes: the parsed URL and the one address it may connect to. */
export interface CheckedTarget {
  url: URL;
  hostname: string;
  port: number;
  address: string;
  family: 4 | 6;
}

interface AllowEntry {
  host?: string;
  wildcard?: boolean;
  network?: Uint8Array;
  prefix?: number;
  port?: number;
}

/** One allowlist entry, or undefined when it is none of: IP, CIDR, host name, `*.domain`, each with an optional `:port`. */
export function parseAllowEntry(raw: string): AllowEntry | undefined {
  const text = raw.trim().toLowerCase();
  if (!text || text.length > 255) return undefined;
  const cidr = /^([0-9a-f:.]+)\/(\d{1,3})$/.exec(text);
  if (cidr) {
    const network = addressBytes(cidr[1]!);
    const prefix = Number(cidr[2]);
    return network && prefix <= network.length * 8 ? { network, prefix } : undefined;
  }
  const bare = addressBytes(text);
  if (bare) return { network: bare, prefix: bare.length * 8 };
  const bracketed = /^\[([0-9a-f:.]+)\]:(\d{1,5})$/.exec(text);
  if (bracketed) {
    const network = addressBytes(bracketed[1]!);
    return network && isPort(bracketed[2]!) ? { network, prefix: 128, port: Number(bracketed[2]) } : undefined;
  }
  const m = /^(\*\.)?([a-z0-9.-]+?)\.?(?::(\d{1,5}))?$/.exec(text);
  if (!m || (m[3] && !isPort(m[3]))) return undefined;
  const port = m[3] ? Number(m[3]) : undefined;
  const ip = addressBytes(m[2]!);
  if (ip) return m[1] ? undefined : { network: ip, prefix: ip.length * 8, port };
  if (!/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/.test(m[2]!)) return undefined;
  return { host: m[2], wildcard: !!m[1], port };
}

const isPort = (p: string) => Number(p) >= 1 && Number(p) <= 65535;

function allowedByList(entries: AllowEntry[], hostname: string, address: string | undefined, port: number): boolean {
  const bytes = address ? addressBytes(address) : undefined;
  return entries.some((e) => {
    if (e.port !== undefined && e.port !== port) return false;
    if (e.host) return e.wildcard ? hostname.endsWith(`.${e.host}`) : hostname === e.host;
    return !!bytes && !!e.network && inRange(bytes, e.network, e.prefix!);
  });
}

const defaultPort = (url: URL) => (url.port ? Number(url.port) : url.protocol === "https:" ? 443 : 80);

/** Parses and checks `raw`, resolving its host once with `lookup`; throws `BlockedUrlError`. */
export async function checkUrl(raw: string, policy: OutboundPolicy, lookup: Lookup): Promise<CheckedTarget> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new BlockedUrlError("URI is invalid");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new BlockedUrlError("Only allowed schemes are http, https");
  if (url.username || url.password || !/^[\x21-\x7e]+$/.test(raw) || !url.hostname) throw new BlockedUrlError("URI is invalid");
  const hostname = url.hostname.replace(/^\[|\]$/g, "").replace(/\.$/, "").toLowerCase();
  const port = defaultPort(url);
  const literal = addressBytes(hostname) ? hostname : undefined;
  let addresses: ResolvedAddress[];
  if (literal) addresses = [{ address: literal, family: literal.includes(":") ? 6 : 4 }];
  else {
    try {
      addresses = await lookup(hostname);
    } catch {
      addresses = [];
    }
    if (!addresses.length) throw new BlockedUrlError(UNRESOLVED_HOST);
  }
  const entries = policy.allowlist.map(parseAllowEntry).filter((e): e is AllowEntry => !!e);
  const hostAllowed = !literal && allowedByList(entries.filter((e) => e.host), hostname, undefined, port);
  for (const { address } of addresses) {
    if (isMetadataAddress(address)) throw new BlockedUrlError(REASONS["link local"]);
    const category = localCategory(address);
    if (!category || policy.allowLocal || hostAllowed || allowedByList(entries, hostname, address, port)) continue;
    throw new BlockedUrlError(REASONS[category]);
  }
  return { url, hostname, port, address: addresses[0]!.address, family: addresses[0]!.family };
}
