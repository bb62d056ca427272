/** One event: who, where, tags, contexts, request, breadcrumbs and stack trace, from its details.json. */
export const ERROR_EVENT_JS = String.raw`
import { $, el, request, messageOf, show, when } from "./common.js";
import { frames } from "./frames.js";

const base = document.body.dataset.project + "/-/error_tracking/" + document.body.dataset.issue;
const eventId = document.body.dataset.event;

function pairs(target, list) {
  const rows = list.filter(([, v]) => v !== null && v !== undefined && v !== "");
  target.replaceChildren(...(rows.length ? rows.flatMap(([k, v]) => [el("dt", {}, k), el("dd", {}, typeof v === "string" ? v : JSON.stringify(v))]) : [el("dd", { class: "muted" }, "None.")]));
}

/** Shows the section only when the event has that interface; says whether it does. */
function section(id, present) { $(id).hidden = !present; return present; }

async function load() {
  const r = await request("GET", base + "/events/" + encodeURIComponent(eventId) + "/details.json");
  if (!r.ok) { show($("#problem"), messageOf(r)); return; }
  const e = r.data.event;
  $("#title").textContent = e.title || e.message || "Event " + e.event_id;
  document.title = ($("#title").textContent) + " · Event";
  pairs($("#summary"), [["Event ID", e.event_id], ["Occurred", when(e.date_created)], ["Received", when(e.date_received)], ["Level", e.level],
    ["Release", e.release], ["Environment", e.environment], ["Platform", e.platform], ["Culprit", e.culprit], ["Message", e.message],
    ["SDK", e.sdk ? [e.sdk.name, e.sdk.version].filter(Boolean).join(" ") : null]]);
  const u = e.user || {};
  pairs($("#user"), [["ID", u.id], ["Username", u.username], ["E-mail", u.email], ["IP address", u.ip_address], ["Name", u.name]]);
  pairs($("#event-tags"), (e.tags || []).map((t) => [t.key, t.value]));
  $("#contexts").replaceChildren(...(e.contexts || []).flatMap((ctx) => {
    const dl = el("dl", { class: "tags" });
    pairs(dl, ctx.values);
    return [el("h3", {}, ctx.name), dl];
  }));
  section("#contexts-s", (e.contexts || []).length > 0);
  const req = e.request;
  if (section("#request-s", !!req)) {
    pairs($("#request"), [["Method", req.method], ["URL", req.url], ["Query", (req.query || []).map((p) => p.join("=")).join("&")], ["Body", req.data]]);
    $("#headers").replaceChildren(...(req.headers || []).map(([k, v]) => el("tr", {}, el("th", { scope: "row" }, k), el("td", {}, v))));
  }
  const crumbs = e.breadcrumbs || [];
  if (section("#breadcrumbs-s", crumbs.length > 0)) {
    $("#breadcrumbs").replaceChildren(...crumbs.map((b) => el("tr", {}, el("td", {}, b.timestamp ? el("time", { datetime: b.timestamp }, when(b.timestamp)) : ""), el("td", {}, b.category || b.type || ""), el("td", {}, b.level || ""), el("td", {}, b.message || ""))));
  }
  $("#trace").replaceChildren(...frames(e.stack_trace_entries));
}
load();
`;
