/** Who may send: key sources, secrets, key and project state, and the lookup cache's bound. */
import { describe, it, expect, beforeAll, afterEach } from "vitest";
import { createHash } from "node:crypto";
import { deleteItem, putItem, getItem } from "../../functions/platform/db/table.js";
import { clientKeyKey, settingKey } from "../../functions/errortracking/domain/contracts.js";
import { combineCredentials, parseDsn, parseSentryAuth, secretMatches } from "../../functions/errortracking/ingest/auth.js";
import { clearLookupCache } from "../../functions/errortracking/ingest/lookup.js";
import { resetIngestLimits } from "../../functions/errortracking/ingest/limits.js";
import { api } from "../support/api.js";
import { addKey, createTarget, drain, inProcessApp, privateQueue, setProjectFeature, type IngestTarget } from "./ingest-support.js";

const app = inProcessApp();
let queue: string;
let t: IngestTarget;

const event = (id = "3f1d0a6c2b8e4e1f9a7b6c5d4e3f2a1b") => `{"event_id":"${id}"}\n{"type":"event"}\n{"message":"hello"}`;
const envelopePath = (p: string | number) => `/api/v4/error_tracking/collector/api/${p}/envelope/`;
const send = (path: string, headers: Record<string, string> = {}, body = event()) => app.request(path, { method: "POST", headers, body });

beforeAll(async () => {
  queue = await privateQueue();
  t = await createTarget();
});

afterEach(() => {
  delete process.env.FORGELINE_INGEST_CACHE_TTL_MS;
  resetIngestLimits();
  clearLookupCache();
});

describe("credential parsing", () => {
  it("reads X-Sentry-Auth in any field order and version, with or without the Sentry prefix", () => {
    expect(parseSentryAuth("Sentry sentry_version=7, sentry_client=sentry-ruby/5.3.0, sentry_timestamp=1795238055, sentry_key=glet_a")).toMatchObject({ sentry_key: "glet_a", sentry_version: "7" });
    expect(parseSentryAuth("Sentry sentry_key=glet_a,sentry_version=4,sentry_secret=s")).toEqual({ sentry_key: "glet_a", sentry_version: "4", sentry_secret: "s" });
    expect(parseSentryAuth("sentry_key=glet_a")).toEqual({ sentry_key: "glet_a" });
    expect(parseSentryAuth("garbage")).toEqual({});
  });

  it("reads DSNs with, without and with an empty secret", () => {
    expect(parseDsn("http://glet_pub:s3cret@127.0.0.1:9003/api/v4/error_tracking/collector/1")).toEqual({ key: "glet_pub", secret: "s3cret" });
    expect(parseDsn("http://glet_pub:@host/1")).toEqual({ key: "glet_pub", secret: undefined });
    expect(parseDsn("http://glet_pub@host/1")).toEqual({ key: "glet_pub", secret: undefined });
    expect(parseDsn("not a url")).toEqual({});
  });

  it("requires agreeing keys and secrets across sources", () => {
    expect(combineCredentials([{ key: "a" }, {}, { key: "a", secret: "s" }])).toEqual({ ok: true, value: { key: "a", secret: "s" } });
    expect(combineCredentials([{ key: "a" }, { key: "b" }])).toMatchObject({ ok: false, error: { status: 401 } });
  });

  it("compares secrets with the stored SHA-256 in hex or base64", () => {
    const digest = createHash("sha256").update("s3cret").digest();
    expect(secretMatches("s3cret", digest.toString("hex"))).toBe(true);
    expect(secretMatches("s3cret", digest.toString("base64"))).toBe(true);
    expect(secretMatches("s3cret", digest.toString("base64url"))).toBe(true);
    expect(secretMatches("wrong", digest.toString("hex"))).toBe(false);
    expect(secretMatches("s3cret", "")).toBe(false);
  });
});

describe("ingest authentication", () => {
  it("accepts the key from the query string, X-Sentry-Auth, Authorization: Sentry, or the envelope dsn", async () => {
    const dsn = `http://${t.publicKey}@localhost/api/v4/error_tracking/collector/${t.projectId}`;
    const ids = ["1", "2", "3", "4"].map((n) => n.repeat(32));
    const responses = [
      await send(`${envelopePath(t.projectId)}?sentry_version=7&sentry_key=${t.publicKey}`, {}, event(ids[0])),
      await send(envelopePath(t.projectId), { "X-Sentry-Auth": `Sentry sentry_version=7, sentry_key=${t.publicKey}` }, event(ids[1])),
      await send(envelopePath(t.projectId), { Authorization: `Sentry sentry_key=${t.publicKey}, sentry_version=7` }, event(ids[2])),
      await send(envelopePath(t.projectId), {}, `{"event_id":"${ids[3]}","dsn":"${dsn}"}\n{"type":"event"}\n{"message":"hello"}`),
    ];
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect(await Promise.all(responses.map((r) => r.json()))).toEqual(ids.map((id) => ({ id })));
    const queued = await drain(queue);
    expect(queued.map((m) => m.eventId).sort()).toEqual(ids);
    expect(queued.every((m) => m.keyId === t.keyId && m.projectId === t.projectId)).toBe(true);
  });

  it("accepts the project's URL-encoded full path", async () => {
    const res = await send(`${envelopePath(encodeURIComponent(t.projectPath))}?sentry_key=${t.publicKey}`);
    expect(res.status).toBe(200);
    await drain(queue);
  });

  it("checks sentry_secret from the header, the query or the dsn when one is given", async () => {
    const auth = (secret: string) => ({ "X-Sentry-Auth": `Sentry sentry_key=${t.publicKey}, sentry_version=7, sentry_secret=${secret}` });
    expect((await send(envelopePath(t.projectId), auth(t.secret))).status).toBe(200);
    const wrong = await send(envelopePath(t.projectId), auth("nope"));
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get("x-sentry-error")).toBe("invalid sentry_secret");
    expect((await send(`${envelopePath(t.projectId)}?sentry_key=${t.publicKey}&sentry_secret=nope`)).status).toBe(401);
    const dsn = `http://${t.publicKey}:nope@localhost/api/v4/error_tracking/collector/${t.projectId}`;
    expect((await send(`${envelopePath(t.projectId)}?sentry_key=${t.publicKey}`, {}, `{"dsn":"${dsn}"}\n{"type":"event"}\n{"message":"x"}`)).status).toBe(401);
    await drain(queue);
  });

  it("rejects a missing key (400), an unknown key (404), conflicting keys (401) and another project's key (404)", async () => {
    const missing = await send(envelopePath(t.projectId));
    expect(missing.status).toBe(400);
    expect(missing.headers.get("x-sentry-error")).toMatch(/missing sentry_key/);
    expect(await missing.json()).toEqual({ detail: expect.stringMatching(/missing sentry_key/) });
    expect((await send(`${envelopePath(t.projectId)}?sentry_key=glet_00000000000000000000000000000000`)).status).toBe(404);
    expect((await send(`${envelopePath(t.projectId)}?sentry_key=${t.publicKey}`, { "X-Sentry-Auth": "Sentry sentry_key=glet_other" })).status).toBe(401);
    const other = await createTarget();
    expect((await send(`${envelopePath(t.projectId)}?sentry_key=${other.publicKey}`)).status).toBe(404);
    expect(await drain(queue)).toEqual([]);
  });

  it("rejects inactive and deleted keys within the cache bound", async () => {
    process.env.FORGELINE_INGEST_CACHE_TTL_MS = "200";
    resetIngestLimits();
    const k = await addKey(t.projectId);
    const path = `${envelopePath(t.projectId)}?sentry_key=${k.publicKey}`;
    expect((await send(path)).status).toBe(200);
    const record = await getItem<Record<string, unknown> & { pk: string; sk: string }>(clientKeyKey(k.publicKey).pk, "ETKEY");
    await putItem({ ...record!, active: false });
    await new Promise((r) => setTimeout(r, 250));
    expect((await send(path)).status).toBe(404);
    await deleteItem(clientKeyKey(k.publicKey).pk, "ETKEY");
    expect((await send(path)).status).toBe(404);
    await drain(queue);
  });

  it("answers 404 when tracking is disabled, not integrated, Monitor is disabled, or the project is unknown", async () => {
    const disabled = await createTarget({ enabled: false });
    const thirdParty = await createTarget({ integrated: false });
    const noMonitor = await createTarget();
    await setProjectFeature(noMonitor.projectId, "monitor_access_level", "disabled");
    for (const x of [disabled, thirdParty, noMonitor]) {
      const res = await send(`${envelopePath(x.projectId)}?sentry_key=${x.publicKey}`);
      expect(res.status).toBe(404);
      expect(res.headers.get("x-sentry-error")).toMatch(/not enabled/);
    }
    expect((await send(`${envelopePath(999_999_999)}?sentry_key=${t.publicKey}`)).status).toBe(404);
    expect((await send(`${envelopePath("no%2Fsuch")}?sentry_key=${t.publicKey}`)).status).toBe(404);
    // Switching tracking off stops ingestion once the cached setting expires.
    await putItem({ ...settingKey(disabled.projectId), projectId: disabled.projectId, enabled: true, integrated: true });
    clearLookupCache();
    expect((await send(`${envelopePath(disabled.projectId)}?sentry_key=${disabled.publicKey}`)).status).toBe(200);
    expect((await drain(queue)).length).toBe(1);
  });
});

describe("over HTTP on the runtime", () => {
  it("serves the collector and stops a deleted key within 5 s", async () => {
    const k = await addKey(t.projectId);
    const path = `${envelopePath(t.projectId)}?sentry_key=${k.publicKey}`;
    expect((await api("POST", path, { raw: event() })).status).toBe(200);
    await deleteItem(clientKeyKey(k.publicKey).pk, "ETKEY");
    await new Promise((r) => setTimeout(r, 5_100));
    expect((await api("POST", path, { raw: event() })).status).toBe(404);
  });
});
