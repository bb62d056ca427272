import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { pageQuery } from "../../platform/http/params.js";
import { pageRequest, setPageHeaders } from "../../platform/http/pagination.js";
import { maintainedProject } from "../domain/access.js";
import { listHooks } from "../hooks/store.js";
import { projectParams } from "./params.js";
import { hookEntity } from "./hooks.js";

/** A project's hooks, oldest first (Maintainer, as GitLab). */
export const endpoint = defineEndpoint(
  { summary: "List project hooks", access: "read", params: projectParams, query: z.object({ ...pageQuery }) },
  async ({ c, principal, params, query }) => {
    const project = await maintainedProject(principal, params.id);
    const page = pageRequest(query);
    const all = await listHooks(project.id);
    setPageHeaders(c, page, all.length > page.offset + page.perPage, all.length);
    return all.slice(page.offset, page.offset + page.perPage).map(hookEntity);
  },
);
export const handler = lambda(endpoint);
