/** A stack trace frame as the error and event pages show it: in-app frames emphasised and open. */
export const FRAMES_JS = String.raw`
import { el, decodeEntities } from "./common.js";

/** Sentry's inApp when the JSON has it; else: not a runtime internal and not a dependency. */
export function inApp(f) {
  if (typeof f.inApp === "boolean") return f.inApp;
  const path = f.abs_path || f.filename || "";
  return !!path && !/^node:|^internal\/|node_modules/.test(path);
}

export function frame(f) {
  const app = inApp(f);
  const where = (f.filename || f.abs_path || "?") + (f.lineNo ? ":" + f.lineNo : "");
  const lines = (f.context || []).map(([n, text]) => el("span", { class: "line" + (n === f.lineNo ? " hit" : "") }, el("span", { class: "ln" }, n), decodeEntities(String(text))));
  const summary = el("summary", {}, (f.function ? f.function + " in " : "") + where, app ? el("span", { class: "badge" }, "in app") : null);
  return el("details", { class: "frame" + (app ? " in-app" : ""), open: app && lines.length > 0 }, summary, lines.length ? el("pre", {}, lines) : el("p", { class: "muted" }, "No source context."));
}

/** Most recent call first (the JSON lists frames oldest first, as Sentry does). */
export function frames(entries) {
  const list = (entries || []).slice().reverse();
  return list.length ? list.map(frame) : [el("p", { class: "muted" }, "No stack trace for this event.")];
}
`;
