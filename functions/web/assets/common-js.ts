/**
 * Shared by the page modules: JSON requests (the session cookie plus `X-CSRF-Token` on writes),
 * `Poll-Interval` polling while the tab is visible, DOM building through `textContent` only.
 */
export const COMMON_JS = String.raw`
export const csrf = () => document.querySelector('meta[name="csrf-token"]')?.content || "";
export const $ = (sel) => document.querySelector(sel);

export function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") node.className = v; else node.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children.flat()) if (c !== undefined && c !== null) node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return node;
}

export async function request(method, url, body) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (method !== "GET") headers["X-CSRF-Token"] = csrf();
  const res = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), credentials: "same-origin" });
  let data = null;
  try { data = await res.json(); } catch { data = null; }
  return { ok: res.ok, status: res.status, data, poll: Number(res.headers.get("Poll-Interval")) || 0 };
}

export function messageOf(r) {
  const m = r.data && (r.data.message || r.data.error || r.data.detail);
  if (typeof m === "string") return m;
  if (m && typeof m === "object") return Object.entries(m).map(([k, v]) => k + " " + [].concat(v).join(", ")).join("; ");
  return "Request failed (" + r.status + ")";
}

export function show(node, text) { node.textContent = text || ""; node.hidden = !text; }
export function announce(text) { const a = $("#announce"); if (a) { a.textContent = ""; setTimeout(() => { a.textContent = text; }, 30); } }

export function when(iso) {
  if (!iso) return "";
  const d = new Date(iso);
  return isNaN(d) ? String(iso) : d.toLocaleString();
}

export function ago(iso) {
  const s = Math.round((Date.now() - new Date(iso).getTime()) / 1000);
  if (!isFinite(s)) return "";
  if (s < 60) return "just now";
  const m = Math.round(s / 60); if (m < 60) return m + " min ago";
  const h = Math.round(m / 60); if (h < 48) return h + " h ago";
  return Math.round(h / 24) + " days ago";
}

/** Calls load() again after the interval the last answer asked for (Poll-Interval), only while visible. */
export function poller(load) {
  let timer = 0;
  const schedule = (ms) => { clearTimeout(timer); if (ms > 0) timer = setTimeout(tick, ms); };
  async function tick() {
    if (document.hidden) return schedule(1000);
    schedule(await load());
  }
  return { start: tick, now: tick };
}

/** Entity-encoded context lines (the JSON sends them HTML-escaped) back to text, never to markup. */
export function decodeEntities(s) {
  return new DOMParser().parseFromString("<!doctype html><body>" + s, "text/html").body.textContent || "";
}
`;
