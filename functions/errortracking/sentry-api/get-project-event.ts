import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { getError } from "../domain/errors.js";
import { getEvent } from "../domain/events.js";
import { fullPathFromSlugs, notFound, trackedProject, trackerUser } from "./access.js";
import { trackerEvent } from "./views.js";

/** `GET /api/0/projects/{org}/{project}/events/{event_id}/`: one event of the project, in full. */
export const endpoint = defineEndpoint(
  {
    summary: "Tracker API: one event of a project",
    access: "public",
    params: z.object({ org: z.string().check(z.maxLength(500)), proj: z.string().check(z.maxLength(255)), event_id: z.string().check(z.maxLength(64)) }),
  },
  async ({ principal, params }) => {
    const project = await trackedProject(trackerUser(principal, false), fullPathFromSlugs(params.org, params.proj));
    // Sentry accepts the id with or without dashes, in either case.
    const event = await getEvent(project.id, params.event_id.replace(/-/g, "").toLowerCase());
    const error = event && (await getError(project.id, event.errorId));
    if (!event || !error) throw notFound();
    return trackerEvent(error, event);
  },
);
export const handler = lambda(endpoint);
