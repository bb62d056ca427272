/**
 * The consumer's pure rules: what each real SDK's event becomes (GitLab's name/actor rules over the
 * fixture captures), timestamps, grouping, the stack trace builder, session deltas and cursors.
 */
import { describe, it, expect } from "vitest";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { formatParams, frameCulprit, messageOf, parseEvent, parseTimestamp } from "../../functions/errortracking/domain/event.js";
import { errorIdOf, groupingComponents } from "../../functions/errortracking/domain/grouping.js";
import { stackTraceEntries } from "../../functions/errortracking/domain/stacktrace.js";
import { aggregateDeltas, deltasOf, flagsOf } from "../../functions/errortracking/domain/sessions.js";
import { decodeCursor, encodeCursor } from "../../functions/errortracking/domain/cursor.js";
import { dsnOf } from "../../functions/errortracking/domain/client-keys.js";

const FIXTURES = resolve(import.meta.dirname, "../fixtures/sentry-sdk-captures");
const RECEIVED = "2026-11-21T06:00:00.000Z";

/** The event payload of a capture: a store body, or the event item of an envelope. */
function captured(file: string): Record<string, unknown> {
  const raw = readFileSync(resolve(FIXTURES, file), "utf8");
  const lines = (file.endsWith(".json") ? raw : raw.slice(raw.indexOf("\r\n\r\n") + 4)).split("\n").filter(Boolean);
  return JSON.parse(lines.length > 1 ? lines[2]! : lines[0]!);
}

describe("event parsing over real SDK captures", () => {
  const cases: Array<[string, Partial<ReturnType<typeof parseEvent>>]> = [
    ["node-sentry-v11/003-POST-api_v4_error_tracking_collector_api_1_envelope.txt", { name: "TypeError", description: "dev node exception", actor: "?(capture)", platform: "node", type: "error" }],
    ["node-sentry-v11/004-POST-api_v4_error_tracking_collector_api_1_envelope.txt", { name: "dev node message", description: "dev node message", type: "default", level: "warning" }],
    ["python-sentry-sdk/001-POST-api_v4_error_tracking_collector_api_1_store.txt", { name: "ZeroDivisionError", actor: "<module>(__main__)", platform: "python" }],
    ["go-sentry-go/001-POST-api_v4_error_tracking_collector_api_1_store.txt", { name: "*errors.errorString", actor: "main(main)", occurredAt: "2026-11-21T05:14:54.298Z" }],
    ["go-raven-go/001-POST-api_v4_error_tracking_collector_api_1_store.decoded.json", { name: "*errors.errorString", actor: "main(main)", occurredAt: "2026-11-21T05:15:02.040Z" }],
    // Ruby's last frame is the method `/` with no module: Sentry's `file in function`, not GitLab's `/()`.
    ["ruby-sentry-ruby/001-POST-api_v4_error_tracking_collector_api_1_envelope.txt", { name: "ZeroDivisionError", description: "divided by 0", platform: "ruby", actor: "sentry_ruby.rb in /" }],
    ["ruby-sentry-raven/002-POST-api_v4_error_tracking_collector_api_1_store.decoded.json", { name: "dev raven message", type: "default" }],
  ];
  for (const [file, expected] of cases) {
    it(file.split("/")[0] + " " + file.split("/")[1]!.slice(0, 3), () => {
      const parsed = parseEvent(1, captured(file), RECEIVED);
      expect(parsed).toMatchObject({ ...expected, user: "id:42", release: "dev@1.0.0", environment: "dev" });
      expect(Number.isSafeInteger(parsed.errorId) && parsed.errorId > 0).toBe(true);
    });
  }

  it("groups the same error from two runs together and apart from other projects", () => {
    const a = parseEvent(1, captured("node-sentry-v11/003-POST-api_v4_error_tracking_collector_api_1_envelope.txt"), RECEIVED);
    const b = parseEvent(1, captured("node-sentry-v11/008-POST-api_v4_error_tracking_collector_api_1_envelope.txt"), RECEIVED);
    expect(b.errorId).toBe(a.errorId);
    expect(parseEvent(2, captured("node-sentry-v11/003-POST-api_v4_error_tracking_collector_api_1_envelope.txt"), RECEIVED).errorId).not.toBe(a.errorId);
  });

  it("writes culprits of frames without a function or module as Sentry does", () => {
    expect(frameCulprit({ function: "handler", module: "app.views" }, "python")).toBe("handler(app.views)");
    expect(frameCulprit({ module: "app.views" }, "python")).toBe("app.views in ?");
    expect(frameCulprit({ function: "?", filename: "worker.js" }, "node")).toBe("?(worker.js)");
    expect(frameCulprit({ function: "run", filename: "main.go" }, "go")).toBe("main.go in run");
    expect(frameCulprit({ function: "run", filename: "a.js", platform: "javascript" }, "python")).toBe("run(a.js)");
    expect(frameCulprit({ function: "lonely" }, "python")).toBe("lonely");
    expect(frameCulprit({ lineno: 3 }, "python")).toBeUndefined();
    expect(parseEvent(1, { platform: "python", exception: { values: [{ type: "E", stacktrace: { frames: [{ lineno: 1 }] } }] }, culprit: "raven's own" }, RECEIVED).actor).toBe("raven's own");
  });

  it("never throws on odd events", () => {
    for (const payload of [{}, { exception: null }, { exception: [] }, { exception: { values: [null, 3] } }, { message: 5 }, { user: "x", timestamp: "soon" }, { exception: { values: [{ stacktrace: { frames: "no" } }] } }]) {
      expect(() => parseEvent(1, payload as Record<string, unknown>, RECEIVED)).not.toThrow();
    }
  });
});

describe("timestamps", () => {
  it("reads unix seconds, numeric strings and ISO with or without a zone, clamping the future", () => {
    expect(parseTimestamp(1630945472.13)).toBe(1630945472130);
    expect(parseTimestamp("1630945472.13")).toBe(1630945472130);
    expect(parseTimestamp("2026-11-21T05:15:02.04")).toBe(Date.parse("2026-11-21T05:15:02.040Z"));
    expect(parseTimestamp("2026-11-21T05:14:54.298340714Z")).toBe(Date.parse("2026-11-21T05:14:54.298Z"));
    expect(parseTimestamp("2026-11-21T06:14:54+01:00")).toBe(Date.parse("2026-11-21T05:14:54Z"));
    expect(parseTimestamp("yesterday")).toBeUndefined();
    expect(parseEvent(1, { timestamp: "2099-01-01T00:00:00Z" }, RECEIVED).occurredAt).toBe(RECEIVED);
  });
});

describe("grouping", () => {
  it("uses the SDK fingerprint, expanding {{ default }}", () => {
    expect(groupingComponents(["{{ default }}", "db", 5], ["exception", "TypeError"])).toEqual(["exception", "TypeError", "db", "5"]);
    expect(groupingComponents([], ["d"])).toEqual(["d"]);
    expect(groupingComponents("nope", ["d"])).toEqual(["d"]);
    expect(errorIdOf(1, ["a"])).toBe(errorIdOf(1, ["a"]));
    expect(errorIdOf(1, ["a"])).not.toBe(errorIdOf(1, ["b"]));
  });
});

describe("stack trace builder", () => {
  it("falls back to threads, numbers context from lineno and skips non-string lines", () => {
    const payload = { threads: { values: [{ id: 1 }, { stacktrace: { frames: [{ filename: "a.py", function: "f", lineno: 5, pre_context: ["x", null], context_line: "y", post_context: ["z"] }] } }] } };
    expect(stackTraceEntries(payload)).toEqual([{ lineNo: 5, context: [[3, "x"], [5, "y"], [6, "z"]], filename: "a.py", abs_path: null, function: "f", colNo: 0 }]);
    expect(stackTraceEntries({ exception: { values: [{ stacktrace: { frames: [{ function: "g" }] } }] } })).toEqual([{ lineNo: null, context: [], filename: null, abs_path: null, function: "g", colNo: 0 }]);
  });
});

describe("session deltas", () => {
  it("count a session once and each state once", () => {
    const ok = flagsOf({ status: "ok", errors: 0 });
    const errored = flagsOf({ status: "ok", errors: 2 });
    const crashed = flagsOf({ status: "crashed" });
    expect(deltasOf(undefined, ok)).toEqual({ sessions: 1, errored: 0, crashed: 0, abnormal: 0 });
    expect(deltasOf(ok, errored)).toEqual({ sessions: 0, errored: 1, crashed: 0, abnormal: 0 });
    expect(deltasOf(errored, { ...errored, ...crashed })).toEqual({ sessions: 0, errored: 0, crashed: 1, abnormal: 0 });
    expect(aggregateDeltas([{ exited: 2, errored: 1, crashed: 1, abnormal: 1 }, { exited: -3 }, null])).toEqual({ sessions: 5, errored: 3, crashed: 1, abnormal: 1 });
  });
});

describe("cursors and DSNs", () => {
  it("refuse cursors of another sort, status or project", () => {
    const k = { pk: "ETERR#1#5", sk: "ERROR", gsi1pk: "ETERRS#1#unresolved", gsi1sk: "2026#5" };
    const c = encodeCursor({ s: "last_seen", d: "n", k });
    expect(decodeCursor(c, "last_seen", "ETERRS#1#unresolved")).toEqual({ s: "last_seen", d: "n", k });
    expect(() => decodeCursor(c, "last_seen", "ETERRS#2#unresolved")).toThrow();
    expect(() => decodeCursor(c, "first_seen", "ETERRS#1#unresolved")).toThrow();
    expect(() => decodeCursor(encodeCursor({ s: "frequency", d: "n", o: -1 }), "frequency", "x")).toThrow();
  });

  it("build GitLab's DSN, keeping a relative root and a non-standard port", () => {
    expect(dsnOf("https://gitlab.example.com", "glet_ab", 5)).toBe("https://glet_ab@gitlab.example.com/api/v4/error_tracking/collector/5");
    expect(dsnOf("http://127.0.0.1:3000/gitlab/", "glet_ab", 5, "s3")).toBe("http://glet_ab:s3@127.0.0.1:3000/gitlab/api/v4/error_tracking/collector/5");
  });
});

describe("a logentry without `formatted` (sentry-cli's -m/-a, Python's logging)", () => {
  it("is filled from its params as Relay does, and grouped by its template", () => {
    expect(messageOf({ logentry: { message: "deploy of %s failed", params: ["api"] } })).toEqual({ text: "deploy of api failed", template: "deploy of %s failed" });
    expect(formatParams("%(user)s has %d items, 100%%", { user: "ana" })).toBe("%(user)s has %d items, 100%%");
    expect(formatParams("%(user)s left at %5.2f%%", { user: "ana", x: 1 })).toBe("%(user)s left at %5.2f%%");
    expect(formatParams("%(user)s left, 100%%", { user: "ana" })).toBe("ana left, 100%");
    expect(formatParams("%s of %d, %r", ["a", 2, { k: 1 }])).toBe('a of 2, {"k":1}');
    // Fewer params than placeholders: the template stays as sent.
    expect(formatParams("%s and %s", ["a"])).toBe("%s and %s");
    expect(formatParams("no params %s", undefined)).toBe("no params %s");
    // `formatted`, when sent, wins.
    expect(messageOf({ logentry: { message: "x %s", params: ["y"], formatted: "as sent" } }).text).toBe("as sent");
  });
});
