/**
 * Which IP addresses an outbound request may reach, with GitLab's URL blocker categories and
 * messages. Addresses arrive canonical (from the WHATWG URL parser or the resolver), so decimal,
 * octal, hex and short IPv4 spellings are already dotted quads here; IPv6 forms that embed an IPv4
 * address (mapped, compatible, NAT64, 6to4) are judged by the IPv4 address inside.
 */
import { isIP } from "node:net";
import { networkInterfaces } from "node:os";

export type Category = "localhost" | "loopback" | "local network" | "link local" | "shared address space" | "limited broadcast" | "multicast";

/** GitLab's wording (`Gitlab::HTTP_V2::UrlBlocker`), after `URL is blocked: ` or `is blocked: `. */
export const REASONS: Record<Category, string> = {
  localhost: "Requests to localhost are not allowed",
  loopback: "Requests to loopback addresses are not allowed",
  "local network": "Requests to the local network are not allowed",
  "link local": "Requests to the link local network are not allowed",
  "shared address space": "Requests to the shared address space are not allowed",
  "limited broadcast": "Requests to the limited broadcast address are not allowed",
  multicast: "Requests to multicast addresses are not allowed",
};

/** 4 or 16 bytes, or undefined when `text` is not an IP address. Brackets and a zone id are dropped. */
export function addressBytes(text: string): Uint8Array | undefined {
  const ip = text.replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  const kind = isIP(ip);
  if (kind === 4) return Uint8Array.from(ip.split(".").map(Number));
  if (kind !== 6) return undefined;
  // A trailing dotted quad (`::ffff:127.0.0.1`) becomes two groups.
  const quad = /(\d+\.\d+\.\d+\.\d+)$/.exec(ip)?.[1];
  const hex = quad ? ip.slice(0, -quad.length) + groupsOf(quad) : ip;
  const [head, tail] = hex.includes("::") ? hex.split("::") : [hex, undefined];
  const parts = (s: string | undefined) => (s ? s.split(":").filter(Boolean) : []);
  const left = parts(head);
  const right = parts(tail);
  const groups = tail === undefined ? left : [...left, ...Array(8 - left.length - right.length).fill("0"), ...right];
  const bytes = new Uint8Array(16);
  groups.forEach((g, i) => {
    const n = parseInt(g, 16);
    bytes[2 * i] = n >> 8;
    bytes[2 * i + 1] = n & 0xff;
  });
  return bytes;
}

function groupsOf(quad: string): string {
  const [a, b, c, d] = quad.split(".").map(Number) as [number, number, number, number];
  return `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
}

const startsWith = (bytes: Uint8Array, prefix: number[]) => prefix.every((b, i) => bytes[i] === b);
const zeros = (bytes: Uint8Array, from: number, to: number) => bytes.slice(from, to).every((b) => b === 0);

/** The IPv4 address an IPv6 address stands for, if it embeds one. */
export function embeddedIpv4(bytes: Uint8Array): Uint8Array | undefined {
  if (bytes.length !== 16) return undefined;
  // ::ffff:a.b.c.d (mapped), ::a.b.c.d (compatible; not :: and ::1), 64:ff9b::a.b.c.d (NAT64).
  if (zeros(bytes, 0, 10) && bytes[10] === 0xff && bytes[11] === 0xff) return bytes.slice(12);
  if (zeros(bytes, 0, 12) && !zeros(bytes, 12, 15)) return bytes.slice(12);
  if (startsWith(bytes, [0x00, 0x64, 0xff, 0x9b]) && zeros(bytes, 4, 12)) return bytes.slice(12);
  // 2002:AABB:CCDD::/48 (6to4) routes to a.b.c.d.
  if (startsWith(bytes, [0x20, 0x02])) return bytes.slice(2, 6);
  return undefined;
}

/** Whether `bytes` lies in `network/prefix` (same family). */
export function inRange(bytes: Uint8Array, network: Uint8Array, prefix: number): boolean {
  if (bytes.length !== network.length) return false;
  for (let bit = 0; bit < prefix; bit += 8) {
    const take = Math.min(8, prefix - bit);
    const mask = (0xff << (8 - take)) & 0xff;
    if ((bytes[bit / 8]! & mask) !== (network[bit / 8]! & mask)) return false;
  }
  return true;
}

function ownAddresses(): Uint8Array[] {
  return Object.values(networkInterfaces())
    .flat()
    .map((i) => (i ? addressBytes(i.address) : undefined))
    .filter((b): b is Uint8Array => !!b);
}

const same = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((x, i) => x === b[i]);

/** The cloud metadata services (AWS IPv4 and IPv6): refused even when local requests are allowed. */
const METADATA = [addressBytes("169.254.169.254")!, addressBytes("fd00:ec2::254")!];

export function isMetadataAddress(text: string): boolean {
  const bytes = addressBytes(text);
  if (!bytes) return false;
  const v4 = embeddedIpv4(bytes);
  return METADATA.some((m) => same(m, bytes) || (!!v4 && same(m, v4)));
}

/** The category that makes `address` local, or undefined for a public address. */
export function localCategory(address: string): Category | undefined {
  const bytes = addressBytes(address);
  if (!bytes) return "localhost"; // not an address at all: never connect to it
  const v4 = embeddedIpv4(bytes);
  if (v4) return localCategory(v4.join("."));
  const range = (cidr: string) => {
    const [net, prefix] = cidr.split("/");
    return inRange(bytes, addressBytes(net!)!, Number(prefix));
  };
  // GitLab's `validate_localhost`: the unspecified address and the machine's own addresses.
  if (range("0.0.0.0/8") || range("::/128") || range("::1/128") || bytes.join(".") === "127.0.0.1") return "localhost";
  if (ownAddresses().some((own) => same(own, bytes))) return "localhost";
  if (range("127.0.0.0/8")) return "loopback";
  if (["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "fc00::/7", "fec0::/10"].some(range)) return "local network";
  if (range("169.254.0.0/16") || range("fe80::/10")) return "link local";
  if (range("100.64.0.0/10")) return "shared address space";
  if (range("255.255.255.255/32")) return "limited broadcast";
  if (range("224.0.0.0/4") || range("ff00::/8")) return "multicast";
  return undefined;
}
