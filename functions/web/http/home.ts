import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { listAllProjects, listVisibleProjects, fullPathOf } from "../../hosting/domain/projects.js";
import { escapeHtml, page } from "../ui/layout.js";
import { pageIdentity, signInRedirect } from "./session-page.js";

/** The signed-in user's projects, each linking to its error tracking pages. */
export const endpoint = defineEndpoint({ summary: "Home page", access: "public" }, async ({ c, principal }) => {
  if (!principal) return signInRedirect(c);
  const { projects } = principal.user.admin ? await listAllProjects(0, 100) : await listVisibleProjects(principal, 0, 100, { membership: true });
  const rows = projects
    .map((p) => {
      const path = fullPathOf(p);
      return `<li><a href="/${escapeHtml(path)}/-/error_tracking">${escapeHtml(path)}</a> <span class="muted">${escapeHtml(p.description)}</span></li>`;
    })
    .join("\n");
  return c.html(
    page({
      title: "Projects",
      ...pageIdentity(principal),
      body: `${principal.user.admin ? `<p class="muted">Admin area: <a href="/admin/storages">Storages</a> · <a href="/admin/storage_moves">Storage moves</a></p>\n` : ""}<h1>Your projects</h1>${rows ? `<ul class="projects">${rows}</ul>` : `<p class="muted">No projects yet.</p>`}`,
    }),
  );
});
export const handler = lambda(endpoint);
