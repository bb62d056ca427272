/** The detail page's list of the error's events, newest first, paged by cursor; each opens its event page. */
export const ERROR_EVENTS_JS = String.raw`
import { $, el, request, messageOf, show, when, ago } from "./common.js";

const base = document.body.dataset.project + "/-/error_tracking/" + document.body.dataset.issue;
let pages = {};
let cursor = "";

function row(e) {
  return el("tr", {},
    el("td", {}, el("a", { href: base + "/events/" + encodeURIComponent(e.event_id) }, el("time", { datetime: e.date_created, title: when(e.date_created) }, ago(e.date_created)))),
    el("td", {}, e.title || e.message || ""),
    el("td", {}, e.release || ""),
    el("td", {}, e.environment || ""),
    el("td", {}, e.user || ""),
    el("td", {}, el("code", {}, String(e.event_id).slice(0, 8))));
}

export async function loadEvents() {
  const r = await request("GET", base + "/events.json" + (cursor ? "?cursor=" + encodeURIComponent(cursor) : ""));
  if (!r.ok) { show($("#events-problem"), messageOf(r)); return; }
  show($("#events-problem"), "");
  const events = r.data.events || [];
  $("#event-rows").replaceChildren(...(events.length ? events.map(row) : [el("tr", {}, el("td", { colspan: 6, class: "muted" }, "No events."))]));
  pages = r.data.pagination || {};
  $("#events-newer").disabled = !pages.previous;
  $("#events-older").disabled = !pages.next;
}

$("#events-newer").addEventListener("click", () => { cursor = pages.previous?.cursor || ""; loadEvents(); });
$("#events-older").addEventListener("click", () => { cursor = pages.next?.cursor || ""; loadEvents(); });
`;
