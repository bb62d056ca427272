/**
 * Admin area › one storage move (`/-/assets/admin/move.js`): its summary and timeline from
 * `…/details.json`, its execution's events from `…/execution.json`, and its path marked on the server-drawn state machine: each state it
 * went through gets the class `visited` and a "✓", the one it is in now `current` and "▶ now", the
 * one it failed in `failed` and "✗ failed" with the cause said beside the drawing. The same path is
 * listed in words under the drawing. Polled while the move runs.
 */
export const MOVE_JS = String.raw`
import { $, el, request, messageOf, show, announce, when, poller } from "/-/assets/common.js";
import { durationText, patch, setText, field, TERMINAL } from "./console.js";

const type = document.body.dataset.type;
const id = document.body.dataset.id;
const states = new Map([...document.querySelectorAll("svg.state-machine g.state")].map((g) => [g.dataset.state, g]));
let summaryShown = "";
let lastState = "";

function pairs(target, list) {
  const key = JSON.stringify(list);
  if (key === summaryShown) return;
  summaryShown = key;
  target.replaceChildren(...list.filter(([, v]) => v !== null && v !== undefined && v !== "").flatMap(([k, v]) => [el("dt", {}, k), el("dd", {}, v)]));
}

function mark(path) {
  const visited = new Set(path.visited);
  for (const [name, g] of states) {
    const failed = !!path.failed && path.failed.state === name;
    const current = path.current === name;
    g.classList.toggle("visited", visited.has(name) && !current && !failed);
    g.classList.toggle("current", current);
    g.classList.toggle("failed", failed);
    setText(g.querySelector("text.mark"), failed ? "✗ failed" : current ? "▶ now" : visited.has(name) ? "✓" : "");
    if (current) g.setAttribute("aria-current", "step"); else g.removeAttribute("aria-current");
  }
  const steps = path.visited.map((name) => [name, path.failed && path.failed.state === name ? "failed" : path.current === name ? "now" : "done"]);
  if (path.current && !visited.has(path.current)) steps.push([path.current, "now"]);
  patch($("#path"), steps, ([name]) => name, () => el("li", {}, el("span", { "data-f": "name" }), " ", el("span", { "data-f": "status", class: "muted" })), (li, [name, status]) => {
    setText(field(li, "name"), name + " (" + ((states.get(name) && states.get(name).dataset.type) || "state") + ")");
    setText(field(li, "status"), status);
  });
  const failure = $("#failure");
  if (path.failed) show(failure, "Failed in " + path.failed.state + (path.failed.cause ? ": " + path.failed.cause : ""));
  else show(failure, "");
}

async function load() {
  const base = "/admin/storage_moves/" + encodeURIComponent(type) + "/" + encodeURIComponent(id);
  const [r, e] = await Promise.all([request("GET", base + "/details.json"), request("GET", base + "/execution.json")]);
  if (!r.ok) { show($("#problem"), messageOf(r)); return r.status === 404 ? 0 : 5000; }
  show($("#problem"), "");
  const d = r.data;
  const m = d.move;
  // The execution's events say more exactly where the move is; without them, its record does.
  const x = e.ok ? e.data : Object.assign({ events: [], complete: false, error: messageOf(e) }, d.execution);
  const path = e.ok ? e.data.path : d.path;
  const link = x.console_url ? el("a", { href: x.console_url, rel: "noopener noreferrer", target: "_blank" }, "Open the execution in the Step Functions console") : null;
  pairs($("#summary"), [["State", m.state], ["Repository", m.container ? m.container.name : "(deleted)"], ["From", m.source_storage_name], ["To", m.destination_storage_name],
    ["Created", when(m.created_at)], ["Updated", when(m.updated_at)], ["Error", m.error_message], ["Checksum verified", d.checksum],
    ["Storage-wide move", m.bulk_execution_name], ["Execution", x.arn]]);
  if (link && !$("#summary a")) $("#summary").append(el("dt", {}, "On AWS"), el("dd", {}, link));
  patch($("#timeline"), d.timeline, (t) => t.at + " " + t.step, () => el("tr", {}, el("td", { "data-f": "step" }), el("td", {}, el("time", { "data-f": "at" })), el("td", { class: "num", "data-f": "took" }), el("td", { "data-f": "detail" })), (row, t) => {
    setText(field(row, "step"), t.step);
    const at = field(row, "at");
    at.setAttribute("datetime", t.at);
    setText(at, when(t.at));
    setText(field(row, "took"), t.seconds === null ? "" : t.seconds < 1 ? (Math.round(t.seconds * 1000)) + " ms" : durationText(t.seconds));
    setText(field(row, "detail"), t.detail || "");
  });
  mark(path);
  setText($("#events-note"), x.error ? "The execution's events could not be read: " + x.error : !x.arn ? "Not started yet: no execution." : x.shared && !x.events.length ? "Its batch has not started: the storage-wide move's execution has no events of this move yet." : (x.shared ? "This execution runs other moves too: listed are its own events and those of the states that carried this move. " : "") + (x.complete ? "" : "Only the latest events were read."));
  patch($("#events"), x.events, (e) => e.id, () => el("tr", {}, el("td", { class: "num", "data-f": "id" }), el("td", {}, el("time", { "data-f": "at" })), el("td", { "data-f": "type" }), el("td", { "data-f": "state" }), el("td", { "data-f": "detail" })), (row, e) => {
    setText(field(row, "id"), e.id);
    setText(field(row, "at"), e.timestamp ? when(e.timestamp) : "");
    setText(field(row, "type"), e.type);
    setText(field(row, "state"), e.state || "");
    setText(field(row, "detail"), e.detail || "");
  });
  if (m.state !== lastState) announce("State: " + m.state + (path.current ? ", now in " + path.current : ""));
  lastState = m.state;
  return TERMINAL.includes(m.state) ? 0 : r.poll;
}

poller(load).start();
`;
