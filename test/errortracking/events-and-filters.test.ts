/**
 * An error's events (UI JSON and Sentry's tracker API), its tags counted per value, and the list's
 * release and environment filters — all from events delivered three times each, as SQS may.
 */
import { describe, it, expect, beforeAll } from "vitest";
import { api } from "../support/api.js";
import { docQuery } from "../../functions/platform/db/document.js";
import { resources } from "../../functions/platform/resources.js";
import { deliver, exceptionEvent, listErrors, message, trackedProject, type User } from "./support.js";

const T0 = Math.floor(Date.now() / 1000 - 3600) * 1000;
let owner: User;
let ui: string;
let projectId: number;
let org: string;
let slug: string;
const ids: Record<string, string> = {};
const eventIds: Record<string, string[]> = { A: [], B: [], C: [] };

function richEvent(fn: string, type: string, s: number, release: string, environment: string) {
  return {
    ...exceptionEvent({ type, value: `${type} in ${fn}`, fn, release, timestamp: (T0 + s * 1000) / 1000, user: { id: `u${s % 2}`, email: `u${s % 2}@example.com` } }),
    environment,
    tags: { feature: "checkout" },
    contexts: { os: { name: "Linux", version: "6.1" }, runtime: { name: "node", version: "v20.11.0" } },
    request: { method: "POST", url: "https://shop.example.com/cart", query_string: "step=2", headers: { "User-Agent": "curl/8", Accept: "*/*" } },
    breadcrumbs: { values: [{ timestamp: (T0 + s * 1000) / 1000 - 1, category: "http", level: "info", message: "GET /cart" }] },
    sdk: { name: "sentry.javascript.node", version: "11.11.0" },
  };
}

beforeAll(async () => {
  let project;
  ({ owner, ui, project } = await trackedProject());
  projectId = project.id;
  [org, slug] = [project.path_with_namespace.split("/")[0]!.replace(/\//g, "~"), project.path];
  const plan: Array<[string, string, string, number, string, string]> = [
    ["A", "handlerA", "TypeError", 1, "app@1", "production"],
    ["A", "handlerA", "TypeError", 2, "app@1", "production"],
    ["B", "handlerB", "RangeError", 3, "app@1", "staging"],
    ["A", "handlerA", "TypeError", 4, "app@2", "production"],
    ["A", "handlerA", "TypeError", 5, "app@2", "staging"],
    ["C", "handlerC", "SyntaxError", 6, "app@3", "production"],
    ["B", "handlerB", "RangeError", 7, "app@1", "staging"],
    ["A", "handlerA", "TypeError", 8, "app@2", "production"],
  ];
  const messages = plan.map(([name, fn, type, s, release, env]) => {
    const m = message(projectId, richEvent(fn, type, s, release, env));
    eventIds[name]!.push(m.eventId);
    return m;
  });
  // Every message three times: the counts below must still be exact.
  expect(await deliver([...messages, ...messages, ...messages])).toEqual([]);
  for (const e of (await listErrors(owner.token, ui)).errors) ids[String(e.title).split(":")[0] === "TypeError" ? "A" : e.title.startsWith("RangeError") ? "B" : "C"] = e.id;
  expect(Object.keys(ids).sort()).toEqual(["A", "B", "C"]);
  expect((await api("PUT", `${ui}/${ids.C}.json`, { token: owner.token, body: { status: "resolved" } })).status).toBe(200);
});

const titles = (errors: Array<Record<string, any>>) => errors.map((e) => Object.entries(ids).find(([, id]) => id === e.id)?.[0]);

describe("events of an error", () => {
  it("events.json lists them newest first with release, environment and user", async () => {
    const res = await api("GET", `${ui}/${ids.A}/events.json`, { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.body.events.map((e: { event_id: string }) => e.event_id)).toEqual([...eventIds.A!].reverse());
    expect(res.body.events[0]).toMatchObject({ release: "app@2", environment: "production", level: "error", user: "id:u0", title: "TypeError: TypeError in handlerA", date_created: new Date(T0 + 8000).toISOString() });
    expect(res.body.pagination).toEqual({});
  });

  it("details.json of one event: user, tags, contexts, request, breadcrumbs and its stack trace", async () => {
    const id = eventIds.A![0]!;
    const res = await api("GET", `${ui}/${ids.A}/events/${id}/details.json`, { token: owner.token });
    expect(res.status).toBe(200);
    const e = res.body.event;
    expect(e).toMatchObject({ event_id: id, issue_id: ids.A, release: "app@1", environment: "production", platform: "node", sdk: { name: "sentry.javascript.node", version: "11.11.0" } });
    expect(e.user).toMatchObject({ id: "u1", email: "u1@example.com" });
    expect(e.tags).toEqual(expect.arrayContaining([{ key: "feature", value: "checkout" }, { key: "release", value: "app@1" }]));
    expect(e.contexts).toEqual(expect.arrayContaining([{ name: "os", values: [["name", "Linux"], ["version", "6.1"]] }]));
    expect(e.request).toEqual({ method: "POST", url: "https://shop.example.com/cart", query: [["step", "2"]], headers: [["User-Agent", "curl/8"], ["Accept", "*/*"]], data: null });
    expect(e.breadcrumbs).toEqual([{ timestamp: new Date(T0 + 1000 - 1000).toISOString(), category: "http", level: "info", message: "GET /cart", type: "default" }]);
    expect(e.stack_trace_entries.map((f: { function: string }) => f.function)).toEqual(["outer", "handlerA"]);
  });

  it("an event of another error, an unknown event and a malformed id are refused", async () => {
    expect((await api("GET", `${ui}/${ids.A}/events/${eventIds.B![0]}/details.json`, { token: owner.token })).status).toBe(404);
    expect((await api("GET", `${ui}/${ids.A}/events/${"0".repeat(32)}/details.json`, { token: owner.token })).status).toBe(404);
    expect((await api("GET", `${ui}/${ids.A}/events/not-an-id/details.json`, { token: owner.token })).status).toBe(400);
    expect((await api("GET", `${ui}/${ids.A}/events.json?cursor=bogus`, { token: owner.token })).status).toBe(400);
  });

  it("Sentry's issue events API pages them with Link cursors, both ways, simple unless full=true", async () => {
    const seen: string[] = [];
    let cursor = "";
    let firstPage: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await api("GET", `/api/0/issues/${ids.A}/events/?limit=2${cursor ? `&cursor=${cursor}` : ""}`, { token: owner.token });
      expect(res.status).toBe(200);
      const page = res.body.map((e: { eventID: string }) => e.eventID);
      if (i === 0) firstPage = page;
      seen.push(...page);
      expect(res.body[0].entries).toBeUndefined();
      const next = /rel="next"; results="(true|false)"; cursor="([^"]*)"/.exec(res.headers.get("link") ?? "")!;
      if (next[1] === "false") break;
      cursor = next[2]!;
    }
    expect(seen).toEqual([...eventIds.A!].reverse());
    const second = await api("GET", `/api/0/issues/${ids.A}/events/?limit=2&cursor=${/rel="next"; results="true"; cursor="([^"]*)"/.exec((await api("GET", `/api/0/issues/${ids.A}/events/?limit=2`, { token: owner.token })).headers.get("link")!)![1]}`, { token: owner.token });
    const back = /rel="previous"; results="true"; cursor="([^"]*)"/.exec(second.headers.get("link")!)![1];
    const again = await api("GET", `/api/0/issues/${ids.A}/events/?limit=2&cursor=${back}`, { token: owner.token });
    expect(again.body.map((e: { eventID: string }) => e.eventID)).toEqual(firstPage);
    const full = await api("GET", `/api/0/issues/${ids.A}/events/?full=true&limit=1`, { token: owner.token });
    expect(full.body[0].entries.map((e: { type: string }) => e.type)).toEqual(["exception", "breadcrumbs", "request"]);
  });

  it("Sentry's project event API answers one event in full, with or without dashes in its id", async () => {
    const id = eventIds.B![1]!;
    const dashed = `${id.slice(0, 8)}-${id.slice(8, 12)}-${id.slice(12, 16)}-${id.slice(16, 20)}-${id.slice(20)}`;
    for (const asked of [id, dashed.toUpperCase()]) {
      const res = await api("GET", `/api/0/projects/${org}/${slug}/events/${asked}/`, { token: owner.token });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ eventID: id, groupID: ids.B, projectID: String(projectId), user: { id: "u1" }, contexts: { os: { type: "os", name: "Linux" } }, release: { version: "app@1" } });
      expect(res.body.entries.find((e: { type: string }) => e.type === "request").data).toMatchObject({ method: "POST", query: [["step", "2"]] });
    }
    expect((await api("GET", `/api/0/projects/${org}/${slug}/events/${"f".repeat(32)}/`, { token: owner.token })).status).toBe(404);
  });
});

describe("tags of an error", () => {
  it("counts each value once per event, under three deliveries of every event", async () => {
    const res = await api("GET", `/api/0/issues/${ids.A}/tags/`, { token: owner.token });
    expect(res.status).toBe(200);
    const byKey = Object.fromEntries(res.body.map((t: { key: string }) => [t.key, t]));
    expect(byKey.release).toMatchObject({ key: "release", totalValues: 5, topValues: [expect.objectContaining({ value: "app@2", count: 3 }), expect.objectContaining({ value: "app@1", count: 2 })] });
    expect(byKey.environment.topValues.map((v: { value: string; count: number }) => [v.value, v.count])).toEqual([["production", 4], ["staging", 1]]);
    expect(byKey.feature).toMatchObject({ totalValues: 5, topValues: [expect.objectContaining({ value: "checkout", count: 5 })] });
    // First/last seen of a value are exact for events processed in order; a batch is processed concurrently.
    const linux = byKey["os.name"].topValues[0];
    expect(linux).toMatchObject({ value: "Linux", count: 5 });
    expect([linux.firstSeen <= linux.lastSeen, linux.firstSeen >= new Date(T0 + 1000).toISOString(), linux.lastSeen <= new Date(T0 + 8000).toISOString()]).toEqual([true, true, true]);
    expect(byKey.url.topValues[0]).toMatchObject({ value: "https://shop.example.com/cart", count: 5 });
    // Values are attributes; the keys hold only their hashes (no e-mail address or URL in a key). The
    // user tag's values are on the error's user markers, the others on `TAG#` items.
    const items = (await docQuery({ TableName: resources.mainTable(), KeyConditionExpression: "pk = :pk", ExpressionAttributeValues: { ":pk": `ETERR#${projectId}#${ids.A}` } })).Items ?? [];
    const valueAt = (prefix: string) => items.filter((i) => String(i.sk).startsWith(prefix)).map((i) => i.tagValue);
    expect(valueAt("USER#")).toEqual(expect.arrayContaining(["id:u0"]));
    expect(valueAt("TAG#")).toEqual(expect.arrayContaining(["https://shop.example.com/cart"]));
    expect(items.filter((i) => /@|https?:/.test(String(i.sk)))).toEqual([]);
    const only = await api("GET", `/api/0/issues/${ids.A}/tags/?key=environment`, { token: owner.token });
    expect(only.body.map((t: { key: string }) => t.key)).toEqual(["environment"]);
  });
});

describe("release and environment filters", () => {
  const list = async (query: string) => titles((await listErrors(owner.token, ui, query)).errors);

  it("error_tracking.json keeps the errors seen with the release, the environment, or both", async () => {
    expect(await list("")).toEqual(["A", "B"]);
    expect(await list("?release=app@1")).toEqual(["B", "A"]);
    expect(await list("?release=app@2")).toEqual(["A"]);
    expect(await list("?environment=staging")).toEqual(["B", "A"]);
    expect(await list("?release=app@1&environment=production")).toEqual(["A"]);
    // Both filters hold per error, as in Sentry: A was seen with app@1 and, later, in staging.
    expect(await list("?release=app@1&environment=staging")).toEqual(["B", "A"]);
    expect(await list("?release=app@3")).toEqual([]);
    expect(await list("?release=app@3&issue_status=resolved")).toEqual(["C"]);
    expect(await list("?release=nope")).toEqual([]);
  });

  it("orders a filtered list by when the error was last or first seen with that value, or by frequency", async () => {
    expect(await list("?environment=production&sort=last_seen&issue_status=unresolved")).toEqual(["A"]);
    // With app@1: A first seen at 1 s, B at 3 s; last seen A at 2 s, B at 7 s.
    expect(await list("?release=app@1&sort=first_seen")).toEqual(["B", "A"]);
    expect(await list("?release=app@1&sort=frequency")).toEqual(["A", "B"]);
    expect(await list("?release=app@1&search_term=rangeerror")).toEqual(["B"]);
  });

  it("a cursor of one filter cannot be used with another", async () => {
    const page = await listErrors(owner.token, ui, "?release=app@1");
    expect(page.pagination).toEqual({});
    const foreign = Buffer.from(JSON.stringify({ s: "last_seen", d: "n", k: { pk: `ETERR#${projectId}#${ids.A}`, sk: "TAG#release#app@1", gsi1pk: `ETERRF#${projectId}#release#app@1`, gsi1sk: "x" } })).toString("base64url");
    expect((await api("GET", `${ui}.json?release=app@1&cursor=${foreign}`, { token: owner.token })).status).toBe(200);
    expect((await api("GET", `${ui}.json?release=app@2&cursor=${foreign}`, { token: owner.token })).status).toBe(400);
    expect((await api("GET", `${ui}.json?cursor=${foreign}`, { token: owner.token })).status).toBe(400);
  });

  it("Sentry's query syntax on the tracker API: release:, environment:, is:, quoted values", async () => {
    const issues = async (query: string) => {
      const res = await api("GET", `/api/0/projects/${org}/${slug}/issues/?query=${encodeURIComponent(query)}`, { token: owner.token });
      expect(res.status).toBe(200);
      return titles(res.body);
    };
    expect(await issues("release:app@1 environment:production is:unresolved")).toEqual(["A"]);
    expect(await issues('release:"app@1" environment:"staging"')).toEqual(["B", "A"]);
    expect(await issues("is:resolved release:app@3")).toEqual(["C"]);
    expect(await issues("environment:staging handlerb")).toEqual(["B"]);
  });

  it("pages a filtered list 20 at a time with next and previous cursors", async () => {
    const many = Array.from({ length: 23 }, (_, i) => message(projectId, { ...exceptionEvent({ type: `Many${i}Error`, timestamp: (T0 + (100 + i) * 1000) / 1000, release: "many@1" }), fingerprint: [`many-${i}`] }));
    expect(await deliver(many)).toEqual([]);
    const first = await listErrors(owner.token, ui, "?release=many@1");
    expect(first.errors.map((e) => e.title.split(":")[0])).toEqual(Array.from({ length: 20 }, (_, i) => `Many${22 - i}Error`));
    const second = await listErrors(owner.token, ui, `?release=many@1&cursor=${first.pagination.next!.cursor}`);
    expect(second.errors.map((e) => e.title.split(":")[0])).toEqual(["Many2Error", "Many1Error", "Many0Error"]);
    expect(second.pagination.next).toBeUndefined();
    const back = await listErrors(owner.token, ui, `?release=many@1&cursor=${second.pagination.previous!.cursor}`);
    expect(back.errors.map((e) => e.id)).toEqual(first.errors.map((e) => e.id));
  });
});
