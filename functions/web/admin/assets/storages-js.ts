/**
 * Admin area › Storages (`/-/assets/admin/storages.js`): a card per storage, kept current in place,
 * with a bar of the bytes on it (staying, leaving), arriving, and free. The bars share one scale so
 * storages compare; free space far larger than the bytes is cut (and says so), its number is exact.
 * Each bar is an image named by the same numbers in words, the segments are told apart by pattern
 * and outline as well as colour, and the numbers are listed beside it.
 */
export const STORAGES_JS = String.raw`
import { $, el, request, messageOf, show, announce, poller } from "/-/assets/common.js";
import { bytesText, patch, setText, field, TYPE_NAMES } from "./console.js";

const esc = (v) => String(v).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
const W = 600;
const H = 30;
let lastInFlight = -1;

function barMarkup(s, scale, freeCap) {
  const out = Math.min(s.moving_out_bytes, s.used_bytes);
  const staying = s.used_bytes - out;
  const free = s.free_bytes === null ? 0 : Math.min(s.free_bytes, freeCap);
  const cut = s.free_bytes !== null && s.free_bytes > freeCap;
  const px = (n) => (scale > 0 ? (n / scale) * (W - 20) : 0);
  const parts = [];
  let x = 0;
  const seg = (cls, n, fill, title) => {
    const w = px(n);
    if (n <= 0) return;
    parts.push('<rect class="seg ' + cls + '" data-bytes="' + n + '" x="' + x.toFixed(1) + '" y="2" width="' + Math.max(1, w).toFixed(1) + '" height="' + (H - 4) + '" fill="' + fill + '" stroke="#1f1f24" stroke-width="1"><title>' + esc(title) + "</title></rect>");
    x += Math.max(1, w);
  };
  const id = "p-" + s.name.replace(/[^A-Za-z0-9_-]/g, "_");
  seg("used", staying, "#4a7fd0", bytesText(staying) + " on " + s.name + ", staying");
  seg("out", out, "url(#" + id + "-out)", bytesText(out) + " leaving " + s.name);
  seg("in", s.moving_in_bytes, "url(#" + id + "-in)", bytesText(s.moving_in_bytes) + " arriving on " + s.name);
  seg("free", free, "#ffffff", s.free_bytes === null ? "free space unknown" : bytesText(s.free_bytes) + " free" + (cut ? " (not to scale)" : ""));
  if (cut) parts.push('<text x="' + (x + 4).toFixed(1) + '" y="' + (H / 2 + 4) + '" font-size="12" fill="#1f1f24">⋯</text>');
  const words = s.name + ": " + bytesText(s.used_bytes) + " on it" + (out ? ", " + bytesText(out) + " of it leaving" : "") + (s.moving_in_bytes ? ", " + bytesText(s.moving_in_bytes) + " arriving" : "") + ", " + (s.free_bytes === null ? "free space unknown" : bytesText(s.free_bytes) + " free") + ".";
  const defs = '<defs><pattern id="' + id + '-out" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="6" height="6" fill="#fde8e8"/><line x1="0" y1="0" x2="0" y2="6" stroke="#a4161a" stroke-width="3"/></pattern>' +
    '<pattern id="' + id + '-in" width="6" height="6" patternUnits="userSpaceOnUse"><rect width="6" height="6" fill="#e6f4ea"/><circle cx="3" cy="3" r="1.6" fill="#1b6e2d"/></pattern></defs>';
  return { words, svg: '<svg xmlns="http://www.w3.org/2000/svg" class="storage-bar" role="img" aria-label="' + esc(words) + '" viewBox="0 0 ' + W + " " + H + '" width="' + W + '" height="' + H + '" focusable="false">' + defs + parts.join("") + "</svg>" };
}

function card(s) {
  return el("section", { class: "card storage", "data-storage": s.name, "aria-labelledby": "h-" + s.name },
    el("h2", { id: "h-" + s.name }, s.name, " ", el("small", { class: "muted", "data-f": "kind" })),
    el("div", { class: "bar", "data-f": "bar" }),
    el("dl", { class: "tags" },
      el("dt", {}, "Weight"), el("dd", { "data-f": "weight" }),
      el("dt", {}, "Repositories"), el("dd", { "data-f": "repositories" }),
      el("dt", {}, "On it"), el("dd", {}, el("data", { "data-f": "used" })),
      el("dt", {}, "Leaving"), el("dd", {}, el("data", { "data-f": "leaving" }), " ", el("span", { "data-f": "leaving-moves", class: "muted" })),
      el("dt", {}, "Arriving"), el("dd", {}, el("data", { "data-f": "arriving" }), " ", el("span", { "data-f": "arriving-moves", class: "muted" })),
      el("dt", {}, "Free"), el("dd", { "data-f": "free" }),
      el("dt", {}, "Quota"), el("dd", { "data-f": "quota" })),
    el("details", { "data-f": "inflight" }, el("summary", { "data-f": "inflight-summary" }),
      el("table", { class: "errors" }, el("caption", { class: "visually-hidden" }, "Moves in flight off or onto " + s.name),
        el("thead", {}, el("tr", {}, ...["Move", "State", "From → to", "Bytes"].map((h) => el("th", { scope: "col" }, h)))),
        el("tbody", { "data-f": "moves" }))));
}

const plural = (n, one, many) => n + " " + (n === 1 ? one : many);

function update(node, s, scale, freeCap) {
  setText(field(node, "kind"), s.kind === "cluster" ? "cluster of " + plural(s.replicas.length, "replica", "replicas") : "local");
  setText(field(node, "weight"), s.weight);
  const r = s.repositories;
  setText(field(node, "repositories"), plural(r.projects.count, "project", "projects") + " (" + bytesText(r.projects.bytes) + "), " + plural(r.snippets.count, "snippet", "snippets") + " (" + bytesText(r.snippets.bytes) + "), " + plural(r.group_wikis.count, "group wiki", "group wikis") + " (" + bytesText(r.group_wikis.bytes) + ")");
  for (const [f, n] of [["used", s.used_bytes], ["leaving", s.moving_out_bytes], ["arriving", s.moving_in_bytes]]) {
    const d = field(node, f);
    if (d.getAttribute("value") !== String(n)) d.setAttribute("value", String(n));
    setText(d, bytesText(n));
  }
  setText(field(node, "leaving-moves"), s.moves_out.length ? "(" + plural(s.moves_out.length, "move", "moves") + ")" : "");
  setText(field(node, "arriving-moves"), s.moves_in.length ? "(" + plural(s.moves_in.length, "move", "moves") + ")" : "");
  setText(field(node, "free"), s.replicas.map((rep) => (s.replicas.length > 1 ? "replica " + rep.replica + ": " : "") + (rep.free_bytes === null ? "unknown" : bytesText(rep.free_bytes))).join(", "));
  setText(field(node, "quota"), s.quota_bytes === null ? "none" : bytesText(s.quota_bytes));
  const bar = barMarkup(s, scale, freeCap);
  const holder = field(node, "bar");
  if (holder.dataset.words !== bar.words + scale) {
    holder.dataset.words = bar.words + scale;
    const t = document.createElement("template");
    t.innerHTML = bar.svg;
    holder.replaceChildren(t.content);
  }
  const moves = [...s.moves_out, ...s.moves_in.filter((m) => m.source_storage_name !== s.name)];
  setText(field(node, "inflight-summary"), moves.length ? plural(moves.length, "move", "moves") + " in flight" : "No moves in flight");
  patch(field(node, "moves"), moves.slice(0, 100), (m) => m.type + "-" + m.id,
    (m) => el("tr", {}, el("td", {}, el("a", { href: "/admin/storage_moves/" + m.type + "/" + m.id }, TYPE_NAMES[m.type] + " move " + m.id)), el("td", { "data-f": "state" }), el("td", {}, m.source_storage_name + " → " + m.destination_storage_name), el("td", { class: "num", "data-f": "bytes" })),
    (row, m) => { setText(field(row, "state"), m.state); setText(field(row, "bytes"), bytesText(m.bytes)); });
}

async function load() {
  const r = await request("GET", "/admin/storages.json");
  if (!r.ok) { show($("#problem"), messageOf(r)); return 5000; }
  show($("#problem"), "");
  const list = r.data.storages;
  const biggest = Math.max(1, ...list.map((s) => s.used_bytes + s.moving_in_bytes));
  const freeCap = biggest * 2;
  const scale = Math.max(...list.map((s) => s.used_bytes + s.moving_in_bytes + (s.free_bytes === null ? 0 : Math.min(s.free_bytes, freeCap))), 1);
  const container = $("#storages");
  patch(container, list, (s) => s.name, card, (node, s) => update(node, s, scale, freeCap));
  const n = r.data.moves_in_flight;
  setText($("#summary"), plural(list.length, "storage", "storages") + "; " + (n ? plural(n, "move", "moves") + " in flight." : "no move in flight."));
  if (n !== lastInFlight) announce(n ? plural(n, "move", "moves") + " in flight" : "No move in flight");
  lastInFlight = n;
  return r.poll;
}

poller(load).start();
`;
