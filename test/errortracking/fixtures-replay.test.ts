/**
 * Every captured real-SDK request (Node v10/v11, Python, Ruby, raven-ruby, sentry-go, raven-go),
 * replayed with a real project's key: over HTTP to the running server (200 + the SDK's event id),
 * and in-process against a private queue to see exactly what was queued.
 */
import { describe, it, expect, beforeAll } from "vitest";
import { baseUrl } from "../support/api.js";
import { createTarget, drain, header, inProcessApp, loadFixtures, privateQueue, rewrite, type Fixture, type IngestTarget } from "./ingest-support.js";

const fixtures = loadFixtures();
const app = inProcessApp();
let t: IngestTarget;
let queue: string;

/** What the fixture's INDEX.md says was sent: one event for store, else the listed item types. */
const expectedKinds = (f: Fixture) => (f.endpoint === "store" ? ["event"] : f.items.map((i) => (i === "event" ? "event" : "session")));

function sdkEventId(f: Fixture): string | undefined {
  if (f.endpoint === "envelope") return JSON.parse(f.decoded.toString("utf8").split("\n")[0]!).event_id;
  return f.decoded[0] === 0x7b ? JSON.parse(f.decoded.toString("utf8")).event_id : undefined;
}

/** The same request from an SDK whose DSN carries the secret (`dsn-with-secret/INDEX.md`). */
function withSecret(f: Fixture, secret: string): Fixture {
  const headers = f.headers.map(([k, v]) => [k, k.toLowerCase() === "x-sentry-auth" ? `${v}, sentry_secret=${secret}` : v] as [string, string]);
  // Only the envelope header's dsn: the same URL may appear in captured source lines further down.
  const text = f.decoded.toString("latin1");
  const nl = text.indexOf("\n");
  const decoded = f.endpoint === "envelope" ? Buffer.from(text.slice(0, nl).replace("http://glet_publickey@", `http://glet_publickey:${secret}@`) + text.slice(nl), "latin1") : f.decoded;
  return { ...f, headers, decoded, wire: header(f, "content-encoding") === "gzip" ? f.wire : decoded };
}

beforeAll(async () => {
  queue = await privateQueue();
  t = await createTarget();
});

describe("fixture replay over HTTP to the runtime", () => {
  for (const f of fixtures) {
    it(`${f.name} → 200 {id}`, async () => {
      const { url, init } = rewrite(f, t);
      const res = await fetch(`${baseUrl()}${url}`, init);
      const body = (await res.json()) as { id: string };
      expect(res.status, JSON.stringify(body)).toBe(200);
      expect(body.id).toMatch(/^[0-9a-f]{32}$/);
      const id = sdkEventId(f);
      if (id) expect(body.id).toBe(id);
    });
  }
});

describe("fixture replay in-process, observed on the queue", () => {
  for (const f of fixtures) {
    it(`${f.name} → queued ${expectedKinds(f).join(", ")}`, async () => {
      const { url, init } = rewrite(f, t);
      const res = await app.request(url, init);
      expect(res.status).toBe(200);
      const { id } = (await res.json()) as { id: string };
      const queued = await drain(queue);
      expect(queued.map((m) => m.kind)).toEqual(expectedKinds(f));
      for (const m of queued) expect(m).toMatchObject({ projectId: t.projectId, keyId: t.keyId });
      const event = queued.find((m) => m.kind === "event");
      if (event) {
        expect(event.eventId).toBe(id);
        expect(Array.isArray(event.payload.exception?.values ?? [])).toBe(true);
        // Every event carries the user the SDK set (`sentry-protocol.md` E.2).
        if (!f.name.startsWith("go-raven-go/001") && !f.name.startsWith("ruby-sentry-raven/00")) expect(event.payload.user).toMatchObject({ id: "42" });
      }
      const session = queued.find((m) => m.kind === "session");
      if (session) expect(session.payload.sid ?? session.payload.aggregates).toBeTruthy();
    });
  }

  it("replays with a DSN secret (header, dsn) and rejects a wrong one", async () => {
    const dsnInHeader = (x: Fixture) => x.endpoint === "envelope" && x.decoded.toString("utf8").split("\n")[0]!.includes('"dsn":"http://glet_publickey@');
    const eligible = fixtures.filter((x) => header(x, "x-sentry-auth") || dsnInHeader(x));
    expect(eligible.length).toBe(fixtures.length - 17); // all but the Node captures, whose auth is the query string
    for (const f of eligible) {
      const good = rewrite(withSecret(f, t.secret), t);
      expect((await app.request(good.url, good.init)).status, f.name).toBe(200);
      const bad = rewrite(withSecret(f, "wrong"), t);
      expect((await app.request(bad.url, bad.init)).status, f.name).toBe(401);
    }
    await drain(queue);
  });
});
