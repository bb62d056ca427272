/**
 * Settings › Monitor › Error Tracking: backend choice, Connect (projects.json), Save changes. Any
 * failed Connect — a bad token, an unreachable tracker, or 404 because Monitor is disabled — shows
 * exactly GitLab's message.
 */
export const SETTINGS_JS = String.raw`
import { $, el, request, messageOf, show, announce } from "./common.js";

const projectUrl = document.body.dataset.project;
const FAILED = "Connection failed. Check auth token and try again";

function backend() { return document.querySelector('input[name="backend"]:checked')?.value || "integrated"; }
function toggle() { $("#thirdparty").hidden = backend() !== "thirdparty"; }
for (const r of document.querySelectorAll('input[name="backend"]')) r.addEventListener("change", toggle);

$("#connect").addEventListener("click", async () => {
  const q = new URLSearchParams({ api_host: $("#api-host").value.trim(), token: $("#token").value });
  $("#connect").disabled = true;
  const r = await request("GET", projectUrl + "/-/error_tracking/projects.json?" + q).catch(() => ({ ok: false }));
  $("#connect").disabled = false;
  if (!r.ok || !Array.isArray(r.data?.projects)) { show($("#problem"), FAILED); return; }
  show($("#problem"), "");
  const select = $("#tracker-project");
  select.replaceChildren(el("option", { value: "" }, "Select project"),
    ...r.data.projects.map((p) => el("option", { value: JSON.stringify({ slug: p.slug, name: p.name, organization_slug: p.organization_slug, organization_name: p.organization_name }) }, p.organization_name + " | " + p.name)));
  announce(r.data.projects.length + " projects found");
  select.focus();
});

$("#settings").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const integrated = backend() === "integrated";
  const body = { enabled: $("#active").checked, integrated };
  if (!integrated) {
    Object.assign(body, { api_host: $("#api-host").value.trim(), token: $("#token").value });
    if ($("#tracker-project").value) body.project = JSON.parse($("#tracker-project").value);
  }
  const r = await request("PATCH", projectUrl + "/-/settings/operations", body);
  if (!r.ok) { show($("#problem"), messageOf(r)); return; }
  show($("#problem"), "");
  $("#dsn").value = r.data.dsn || "";
  $("#dsn-box").hidden = !r.data.dsn;
  if (!integrated && body.token && !/^\*+$/.test(body.token)) $("#token").value = "*".repeat(20);
  announce("Your changes have been saved");
});
`;
