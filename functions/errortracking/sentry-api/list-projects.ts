import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { callerProjects, trackerUser } from "./access.js";
import { trackerProject } from "./views.js";

/** `GET /api/0/projects/`: the caller's projects whose Monitor feature is on (Connect lists these). */
export const endpoint = defineEndpoint({ summary: "Tracker API: list projects", access: "public" }, async ({ principal }) => {
  const user = trackerUser(principal, false);
  const projects = await callerProjects(user);
  return projects.filter((p) => p.features.monitor_access_level !== "disabled").map(trackerProject);
});
export const handler = lambda(endpoint);
