/**
 * The guarded outbound client (functions/platform/outbound/) with GitLab's outbound request
 * filtering, through the two calls that take a user's tracker URL: Connect
 * (`…/-/error_tracking/projects.json?api_host=…&token=…`) and saving the settings
 * (`PATCH …/-/settings/operations`). Loopback targets are real listeners on 127.0.0.1, 127.0.0.2
 * and ::1 that record every connection; any other address goes to a connector that records the
 * attempt and answers without connecting, and names resolve through a fake DNS, so nothing here
 * sends a packet off the machine.
 */
import { describe, it, expect, beforeAll, afterAll, afterEach } from "vitest";
import { createServer, type Server } from "node:http";
import { type AddressInfo } from "node:net";
import { ownRuntime } from "../support/own-runtime.js";
import { requestAt } from "../support/api.js";
import { directConnector, outboundFetch, useConnector, type Connector } from "../../functions/platform/outbound/client.js";
import { BlockedUrlError, checkUrl, DENY_LOCAL, parseAllowEntry, type ResolvedAddress } from "../../functions/platform/outbound/policy.js";
import { localCategory } from "../../functions/platform/outbound/addresses.js";

const PROJECTS = [{ id: "1", name: "shop", slug: "shop", status: "active", organization: { id: "1", name: "Org", slug: "org" } }];

/** Fake DNS: only these names exist. `rebind.test` answers a public address once, then loopback. */
function fakeDns(): (hostname: string) => Promise<ResolvedAddress[]> {
  let rebinds = 0;
  const names: Record<string, string[]> = {
    localhost: ["127.0.0.1"],
    "tracker.test": ["127.0.0.1"],
    "v6.tracker.test": ["::1"],
    "metadata.test": ["169.254.169.254"],
    "intranet.test": ["10.1.2.3"],
    "mixed.test": ["93.184.216.34", "10.0.0.1"],
    "public.test": ["93.184.216.34"],
  };
  return async (hostname) => {
    const found = hostname === "rebind.test" ? [rebinds++ === 0 ? "93.184.216.34" : "127.0.0.1"] : names[hostname];
    if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
    return found.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }) as ResolvedAddress);
  };
}

/** 127.0.0.0/8, ::1 and the IPv4-mapped form of 127.x (`::ffff:7f00:1`): the only addresses connected to. */
const isLoopbackTarget = (address: string) => /^127\./.test(address) || address === "::1" || /^::ffff:7f[0-9a-f]{2}:/.test(address);

/** Connects for real only to loopback; records every other target and answers like a tracker would. */
function recordingConnector() {
  const attempts: Array<{ address: string; port: number; host: string }> = [];
  const connector: Connector = {
    lookup: fakeDns(),
    async send(target, init) {
      attempts.push({ address: target.address, port: target.port, host: target.url.host });
      if (isLoopbackTarget(target.address)) return directConnector.send(target, init);
      return new Response(JSON.stringify(PROJECTS), { status: 200, headers: { "content-type": "application/json" } });
    },
  };
  return { connector, attempts };
}

/** A tracker-like listener on one loopback address; records each request (and a TLS handshake it cannot parse). */
async function listener(host: string, port = 0): Promise<{ server: Server; port: number; connections: string[] }> {
  const connections: string[] = [];
  const server = createServer((req, res) => {
    if (req.url === "/redirect/api/0/projects/") {
      res.writeHead(302, { Location: "http://169.254.169.254/api/0/projects/" }).end();
      return;
    }
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(PROJECTS));
  });
  server.on("request", () => connections.push(host));
  server.on("clientError", (_err, socket) => (connections.push(host), socket.destroy()));
  await new Promise<void>((ok, fail) => server.once("error", fail).listen(port, host, () => ok()));
  return { server, port: (server.address() as AddressInfo).port, connections };
}

describe("addresses and allowlist entries", () => {
  it("classifies every form of a local address and leaves public ones alone", () => {
    expect(localCategory("127.0.0.1")).toBe("localhost");
    expect(localCategory("127.8.9.10")).toBe("loopback");
    expect(localCategory("::ffff:10.0.0.1")).toBe("local network");
    expect(localCategory("::10.0.0.1")).toBe("local network"); // IPv4-compatible
    expect(localCategory("64:ff9b::a9fe:a9fe")).toBe("link local"); // NAT64
    expect(localCategory("2002:c0a8:0101::1")).toBe("local network"); // 6to4 of 192.168.1.1
    expect(localCategory("fec0::1")).toBe("local network");
    expect(localCategory("ff02::1")).toBe("multicast");
    expect(localCategory("172.32.0.1")).toBeUndefined();
    expect(localCategory("100.128.0.1")).toBeUndefined();
    expect(localCategory("2606:4700:4700::1111")).toBeUndefined();
  });

  it("parses the allowlist's forms and refuses what is none of them", () => {
    for (const ok of ["10.0.0.5", "10.0.0.0/8", "fd00::/8", "[::1]:8080", "127.0.0.1:3000", "tracker.lan", "*.corp.example:443", "Tracker.LAN."]) expect(parseAllowEntry(ok), ok).toBeDefined();
    for (const bad of ["", "10.0.0.0/33", "::1/129", "tracker lan", "http://tracker", "*.10.0.0.1", "host:0", "host:70000", "a..b"]) expect(parseAllowEntry(bad), bad).toBeUndefined();
  });

  it("checks the address it resolved once and connects to that one (DNS rebinding)", async () => {
    const lookup = fakeDns();
    const first = await checkUrl("http://rebind.test/api/0/projects/", DENY_LOCAL, lookup);
    expect(first.address).toBe("93.184.216.34");
    await expect(checkUrl("http://rebind.test/api/0/projects/", DENY_LOCAL, lookup)).rejects.toThrow("URL is blocked: Requests to localhost are not allowed");
  });

  it("the direct connector sends to the checked address, never resolving the name again", async () => {
    const target = await listener("127.0.0.1");
    try {
      const seen: string[] = [];
      target.server.on("request", (req) => seen.push(req.headers.host ?? ""));
      // `pinned.invalid` exists in no DNS: the request can only arrive through the checked address.
      const url = new URL(`http://pinned.invalid:${target.port}/api/0/projects/`);
      const res = await directConnector.send({ url, hostname: "pinned.invalid", port: target.port, address: "127.0.0.1", family: 4 }, { method: "GET" });
      expect(await res.json()).toEqual(PROJECTS);
      expect(seen).toEqual([`pinned.invalid:${target.port}`]);
    } finally {
      target.server.close();
    }
  });

  it("does not follow redirects, and refuses before connecting", async () => {
    const target = await listener("127.0.0.1");
    const { connector, attempts } = recordingConnector();
    const restore = useConnector(connector);
    try {
      const res = await outboundFetch(`http://127.0.0.1:${target.port}/redirect/api/0/projects/`, { method: "GET" }, { allowLocal: false, allowlist: [`127.0.0.1:${target.port}`] });
      expect(res.status).toBe(302);
      expect(attempts.map((a) => a.address)).toEqual(["127.0.0.1"]);
      await expect(outboundFetch("http://[::ffff:a9fe:a9fe]/", { method: "GET" }, { allowLocal: true, allowlist: ["169.254.0.0/16"] })).rejects.toBeInstanceOf(BlockedUrlError);
      await expect(outboundFetch("gopher://public.test/", { method: "GET" }, DENY_LOCAL)).rejects.toThrow("URL is blocked: Only allowed schemes are http, https");
      expect(attempts).toHaveLength(1);
    } finally {
      restore();
      target.server.close();
    }
  });
});

type Expect = "listener" | "recorded" | "unreachable" | { blocked: string } | { invalid: true } | { unresolved: true };
interface Row {
  url: string;
  /** Local requests refused (GitLab's default). */
  denied: Expect;
  /** `allow_local_requests_from_web_hooks_and_services: true`. */
  allowed: Expect;
}

const LOCALHOST = { blocked: "Requests to localhost are not allowed" };
const LOOPBACK = { blocked: "Requests to loopback addresses are not allowed" };
const LAN = { blocked: "Requests to the local network are not allowed" };
const LINK = { blocked: "Requests to the link local network are not allowed" };

function rows(p: number, ipv6: boolean): Row[] {
  const local = (url: string, reason: Expect, reached: Expect = "listener"): Row => ({ url, denied: reason, allowed: reached });
  // Without IPv6 on the machine (some containers), ::1 is tried and cannot be reached.
  const v6 = ipv6 ? "listener" : "unreachable";
  return [
    local(`http://127.0.0.1:${p}`, LOCALHOST),
    local(`http://127.1:${p}`, LOCALHOST),
    local(`http://2130706433:${p}`, LOCALHOST),
    local(`http://0x7f000001:${p}`, LOCALHOST),
    local(`http://017700000001:${p}`, LOCALHOST),
    local(`http://0177.0.0.1:${p}`, LOCALHOST),
    local(`http://0x7f.0.0.1:${p}`, LOCALHOST),
    local(`http://127.0.0.1.:${p}`, LOCALHOST),
    local(`http://[::ffff:127.0.0.1]:${p}`, LOCALHOST),
    local(`http://[::ffff:7f00:1]:${p}`, LOCALHOST),
    local(`http://localhost:${p}`, LOCALHOST),
    local(`http://LOCALHOST.:${p}`, LOCALHOST),
    local(`http://tracker.test:${p}`, LOCALHOST),
    local(`https://127.0.0.1:${p}`, LOCALHOST, "listener"),
    local(`http://[::1]:${p}`, LOCALHOST, v6),
    local(`http://[0:0:0:0:0:0:0:1]:${p}`, LOCALHOST, v6),
    local(`http://v6.tracker.test:${p}`, LOCALHOST, v6),
    local(`http://127.0.0.2:${p}`, LOOPBACK),
    local(`http://0.0.0.0:${p}`, LOCALHOST, "recorded"),
    local(`http://0:${p}`, LOCALHOST, "recorded"),
    local(`http://[::]:${p}`, LOCALHOST, "recorded"),
    // The cloud metadata service: refused even when local requests are allowed.
    local("http://169.254.169.254", LINK, LINK),
    local("http://2852039166", LINK, LINK),
    local("http://0xa9fea9fe", LINK, LINK),
    local("http://0251.0376.0251.0376", LINK, LINK),
    local("http://169.254.43518", LINK, LINK),
    local("http://[::ffff:169.254.169.254]", LINK, LINK),
    local("http://[fd00:ec2::254]", LINK, LINK),
    local("http://metadata.test", LINK, LINK),
    local("http://10.0.0.1", LAN, "recorded"),
    local("http://172.16.5.4", LAN, "recorded"),
    local("http://192.168.1.10:8080", LAN, "recorded"),
    local("http://[fc00::1]", LAN, "recorded"),
    local("http://[::ffff:10.0.0.1]", LAN, "recorded"),
    local("http://[64:ff9b::a00:1]", LAN, "recorded"),
    local("http://intranet.test", LAN, "recorded"),
    local("http://mixed.test", LAN, "recorded"),
    local("http://[fe80::1]", LINK, "recorded"),
    local("http://169.254.1.1", LINK, "recorded"),
    local("http://100.64.0.1", { blocked: "Requests to the shared address space are not allowed" }, "recorded"),
    local("http://224.0.0.1", { blocked: "Requests to multicast addresses are not allowed" }, "recorded"),
    local("http://255.255.255.255", { blocked: "Requests to the limited broadcast address are not allowed" }, "recorded"),
    { url: "http://93.184.216.34", denied: "recorded", allowed: "recorded" },
    { url: "http://public.test:8443", denied: "recorded", allowed: "recorded" },
    { url: "https://[2606:4700:4700::1111]", denied: "recorded", allowed: "recorded" },
    { url: "http://nowhere.test", denied: { unresolved: true }, allowed: { unresolved: true } },
    { url: `ftp://127.0.0.1:${p}`, denied: { invalid: true }, allowed: { invalid: true } },
    { url: `http://user:pass@127.0.0.1:${p}`, denied: { invalid: true }, allowed: { invalid: true } },
  ];
}

let own: Awaited<ReturnType<typeof ownRuntime>>;
let project: { path_with_namespace: string };
let admin: string;
let listeners: Array<Awaited<ReturnType<typeof listener>>>;
let recording: ReturnType<typeof recordingConnector>;
let restore: (() => void) | undefined;

/** One free port on 127.0.0.1, 127.0.0.2 and (where the machine has IPv6) ::1 alike. */
async function loopbackListeners() {
  for (;;) {
    const first = await listener("127.0.0.1");
    const more: Array<Awaited<ReturnType<typeof listener>>> = [];
    try {
      more.push(await listener("127.0.0.2", first.port));
      more.push(await listener("::1", first.port));
      return [first, ...more];
    } catch (err) {
      const inUse = (err as { code?: string }).code === "EADDRINUSE";
      if (!inUse && more.length === 1) return [first, ...more]; // no IPv6 here
      [first, ...more].forEach((l) => l.server.close());
      if (!inUse) throw err;
    }
  }
}

beforeAll(async () => {
  own = await ownRuntime();
  admin = own.runtime.bootstrap.token!;
  project = (await requestAt(own.runtime.baseUrl, "POST", "/api/v4/projects", { token: admin, body: { name: "uses-a-tracker" } })).body;
  listeners = await loopbackListeners();
});
afterAll(async () => {
  listeners?.forEach((l) => l.server.close());
  await own?.stop();
});
afterEach(() => restore?.());

const settings = (body: Record<string, unknown>) => requestAt(own.runtime.baseUrl, "PUT", "/api/v4/application/settings", { token: admin, body });
const connect = (host: string) =>
  requestAt(own.runtime.baseUrl, "GET", `/${project.path_with_namespace}/-/error_tracking/projects.json?api_host=${encodeURIComponent(host)}&token=x`, { token: admin });
const save = (host: string) =>
  requestAt(own.runtime.baseUrl, "PATCH", `/${project.path_with_namespace}/-/settings/operations`, {
    token: admin,
    body: { enabled: true, integrated: false, api_host: host, token: "x", project: { slug: "shop", name: "shop", organization_slug: "org", organization_name: "Org" } },
  });
const reached = () => listeners.reduce((n, l) => n + l.connections.length, 0);

async function runTable(policy: "denied" | "allowed") {
  recording = recordingConnector();
  restore = useConnector(recording.connector);
  const table = rows(listeners[0]!.port, listeners.length === 3);
  expect(table.length).toBeGreaterThanOrEqual(30);
  const failures: string[] = [];
  for (const row of table) {
    const want = row[policy];
    const [attemptsBefore, reachedBefore] = [recording.attempts.length, reached()];
    const saved = await save(row.url);
    const listed = await connect(row.url);
    const attempts = recording.attempts.slice(attemptsBefore);
    const touched = reached() - reachedBefore;
    const check = (ok: boolean, what: string) => ok || failures.push(`${row.url} (${policy}): ${what}; save ${saved.status} ${saved.text}; connect ${listed.status} ${listed.text}; attempts ${JSON.stringify(attempts)}`);
    if (typeof want === "object") {
      const field = "blocked" in want ? `is blocked: ${want.blocked}` : "unresolved" in want ? "is blocked: Host cannot be resolved or invalid" : "is invalid";
      check(saved.status === 400 && JSON.stringify(saved.body) === JSON.stringify({ message: { api_url: [field] } }), "save not refused with GitLab's message");
      check(listed.status === 400 && JSON.stringify(listed.body) === JSON.stringify({ message: { api_url: [field] } }), "Connect not refused with the same message");
      check(attempts.length === 0 && touched === 0, "something was sent");
    } else {
      check(saved.status === 200, "save refused");
      check(attempts.length === 1, "Connect did not go out exactly once");
      if (want === "listener") check(touched === 1 && isLoopbackTarget(attempts[0]?.address ?? ""), "the loopback listener was not reached");
      else if (want === "unreachable") check(touched === 0 && listed.status === 400 && /^Connection/.test(listed.body.message), "expected a failed connection");
      else check(touched === 0 && !isLoopbackTarget(attempts[0]?.address ?? ""), "expected a recorded attempt only");
      // A plain listener answers a TLS handshake with garbage: the call fails, but it did go out.
      if (!row.url.startsWith("https://127") && want !== "unreachable") check(listed.status === 200 && listed.body.projects?.[0]?.slug === "shop", "Connect did not list the projects");
    }
  }
  expect(failures).toEqual([]);
}

describe("Connect and the settings API through the outbound filter", () => {
  it("with local requests refused (the default), nothing reaches a local address in any spelling", async () => {
    expect((await requestAt(own.runtime.baseUrl, "GET", "/api/v4/application/settings", { token: admin })).body).toMatchObject({
      allow_local_requests_from_web_hooks_and_services: false,
      outbound_local_requests_whitelist: [],
    });
    await runTable("denied");
  });

  it("with local requests allowed, local trackers are reached and the metadata address still is not", async () => {
    expect((await settings({ allow_local_requests_from_web_hooks_and_services: true })).body.allow_local_requests_from_web_hooks_and_services).toBe(true);
    try {
      await runTable("allowed");
    } finally {
      await settings({ allow_local_requests_from_web_hooks_and_services: false });
    }
  });

  it("the allowlist opens exactly the hosts, addresses, ranges and ports it names", async () => {
    recording = recordingConnector();
    restore = useConnector(recording.connector);
    const p = listeners[0]!.port;
    const put = await settings({ outbound_local_requests_whitelist: [`127.0.0.1:${p}`, "10.0.0.0/8", "intranet.test", "*.corp.test"] });
    expect(put.body).toMatchObject({ outbound_local_requests_whitelist: [`127.0.0.1:${p}`, "10.0.0.0/8", "intranet.test", "*.corp.test"], allow_local_requests_from_web_hooks_and_services: false });
    try {
      expect((await connect(`http://127.0.0.1:${p}`)).status).toBe(200);
      expect((await connect(`http://tracker.test:${p}`)).status).toBe(200); // resolves to an allowed address and port
      expect((await connect("http://10.9.8.7")).status).toBe(200);
      expect((await connect("http://intranet.test")).status).toBe(200);
      expect((await connect(`http://127.0.0.2:${p}`)).body).toEqual({ message: { api_url: ["is blocked: Requests to loopback addresses are not allowed"] } });
      expect((await connect(`http://127.0.0.1:${p + 1}`)).body).toEqual({ message: { api_url: ["is blocked: Requests to localhost are not allowed"] } });
      expect((await connect("http://192.168.0.1")).status).toBe(400);
      expect(recording.attempts.map((a) => a.address)).toEqual(["127.0.0.1", "127.0.0.1", "10.9.8.7", "10.1.2.3"]);
      // Saving another setting leaves the allowlist as it was.
      expect((await settings({ repository_storages_weighted: { default: 100 } })).body.outbound_local_requests_whitelist).toHaveLength(4);
      expect((await requestAt(own.runtime.baseUrl, "GET", "/api/v4/application/settings", { token: admin })).body.outbound_local_requests_whitelist).toHaveLength(4);
      const raw = await settings({ outbound_local_requests_allowlist_raw: "tracker.lan, 192.168.0.0/16;[::1]:9000" });
      expect(raw.body.outbound_local_requests_whitelist).toEqual(["tracker.lan", "192.168.0.0/16", "[::1]:9000"]);
      const form = await requestAt(own.runtime.baseUrl, "PUT", "/api/v4/application/settings", {
        token: admin,
        raw: "outbound_local_requests_whitelist[]=a.lan&outbound_local_requests_whitelist[]=10.0.0.0%2F8&allow_local_requests_from_web_hooks_and_services=false",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
      });
      expect(form.body).toMatchObject({ outbound_local_requests_whitelist: ["a.lan", "10.0.0.0/8"], allow_local_requests_from_web_hooks_and_services: false });
      const bad = await settings({ outbound_local_requests_whitelist: ["ok.example", "not a host"] });
      expect(bad).toMatchObject({ status: 400, body: { message: { outbound_local_requests_whitelist: ["contains invalid entries: not a host"] } } });
    } finally {
      await settings({ outbound_local_requests_whitelist: [] });
    }
  });

  it("a name that resolves to a public address at the check and to loopback afterwards is refused when the call is made", async () => {
    recording = recordingConnector();
    restore = useConnector(recording.connector);
    const listed = await connect("http://rebind.test");
    expect(listed.body).toEqual({ message: "URL is blocked: Requests to localhost are not allowed" });
    expect(recording.attempts).toEqual([]);
  });
});
