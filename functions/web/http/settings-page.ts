import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { fullPathOf } from "../../hosting/domain/projects.js";
import { findSetting, integratedOffered } from "../../errortracking/domain/settings.js";
import { escapeHtml, page } from "../ui/layout.js";
import { maintainedOrNothing, notFoundPage, pathParams, projectUrlOf } from "../ui/project-page.js";
import { pageIdentity, signInRedirect } from "./session-page.js";
import { currentDsn } from "./current-dsn.js";

const MASK = "*".repeat(20);

/**
 * Settings › Monitor › Error Tracking (Maintainer+). The stored token is never sent: the field shows
 * a mask, which `projects.json` and the save route read as "keep the stored token" (GitLab).
 */
export const endpoint = defineEndpoint({ summary: "Error tracking settings page", access: "public", params: z.object(pathParams) }, async ({ c, principal, params }) => {
  if (!principal) return signInRedirect(c);
  const found = await maintainedOrNothing(principal, params);
  if (!found) return notFoundPage(c, principal);
  const { project } = found;
  const s = await findSetting(project.id);
  const integrated = s ? s.integrated : integratedOffered();
  const host = s?.apiUrl ? s.apiUrl.replace(/\/api\/0\/.*$/, "") : "";
  const dsn = s?.enabled && s.integrated ? await currentDsn(c, project.id) : "";
  const chosen = s?.apiUrl && s.projectName ? `<option value="" selected>${escapeHtml(`${s.organizationName ?? ""} | ${s.projectName}`)}</option>` : `<option value="">Select project</option>`;
  return c.html(
    page({
      title: `Monitor settings · ${fullPathOf(project)}`,
      ...pageIdentity(principal),
      script: "settings",
      data: { project: projectUrlOf(project) },
      body: `<nav class="crumbs" aria-label="Breadcrumb"><a href="/">Projects</a> › <a href="${escapeHtml(projectUrlOf(project))}/-/error_tracking">${escapeHtml(fullPathOf(project))}</a> › Settings › Monitor</nav>
<h1>Error tracking</h1>
<form id="settings" class="card">
  <p><input type="checkbox" id="active" name="active"${s?.enabled ? " checked" : ""}> <label for="active">Active</label></p>
  <fieldset><legend>Error tracking backend</legend>
    <p><input type="radio" id="backend-integrated" name="backend" value="integrated"${integrated ? " checked" : ""}> <label for="backend-integrated">GitLab (integrated)</label></p>
    <p><input type="radio" id="backend-thirdparty" name="backend" value="thirdparty"${integrated ? "" : " checked"}> <label for="backend-thirdparty">Sentry (third-party tracker)</label></p>
  </fieldset>
  <div id="thirdparty"${integrated ? " hidden" : ""}>
    <label for="api-host">Sentry API URL</label>
    <input id="api-host" name="api_host" type="url" value="${escapeHtml(host)}" placeholder="https://mysentry.example.com" autocomplete="off">
    <label for="token">Auth Token</label>
    <input id="token" name="token" type="password" value="${s?.tokenCiphertext ? MASK : ""}" autocomplete="off">
    <p class="hint">A token with the <code>project:read</code>, <code>event:read</code> and <code>event:write</code> scopes (on Forgeline: a personal access token with <code>api</code>).</p>
    <button type="button" id="connect">Connect</button>
    <label for="tracker-project">Project</label>
    <select id="tracker-project" name="project">${chosen}</select>
  </div>
  <p id="problem" class="flash error" role="alert" hidden></p>
  <p id="announce" aria-live="polite"></p>
  <div id="dsn-box"${dsn ? "" : " hidden"}><label for="dsn">Paste this DSN into your Sentry SDK</label> <input id="dsn" type="text" readonly value="${escapeHtml(dsn)}"></div>
  <button type="submit" class="primary" id="save">Save changes</button>
</form>`,
    }),
  );
});
export const handler = lambda(endpoint);
