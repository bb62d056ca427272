import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { pageQuery, positiveInt } from "../../platform/http/params.js";
import { pageRequest, setPageHeaders } from "../../platform/http/pagination.js";
import { notFound } from "../../platform/http/errors.js";
import { queryAll, GSI1 } from "../../platform/db/table.js";
import { findUser } from "../../identity/domain/users.js";
import type { MemberRecord } from "../domain/access.js";
import { findProject } from "../domain/projects.js";
import { findGroup } from "../domain/groups.js";

type Membership = MemberRecord & { gsi1sk: string };

/**
 * Admin only, GitLab's `GET /users/:id/memberships`: the user's direct memberships of projects
 * (`source_type` `Project`) and groups (`Namespace`), filtered by `type`, as GitLab's `Membership`
 * entity.
 */
export const endpoint = defineEndpoint(
  {
    summary: "List a user's memberships (admin)",
    access: "read",
    admin: true,
    params: z.object({ user_id: positiveInt() }),
    query: z.object({ ...pageQuery, type: z.optional(z.enum(["Project", "Namespace"])) }),
  },
  async ({ c, params, query }) => {
    const user = await findUser(params.user_id);
    if (!user) throw notFound("User");
    const page = pageRequest(query);
    const read = async (kind: "PROJECTS" | "GROUPS") => queryAll<Membership>({ index: GSI1, pk: `USER#${user.id}#${kind}`, ascending: true });
    const [projects, groups] = await Promise.all([query.type === "Namespace" ? [] : read("PROJECTS"), query.type === "Project" ? [] : read("GROUPS")]);
    const all = [...groups.map((m) => ({ m, type: "Namespace" as const })), ...projects.map((m) => ({ m, type: "Project" as const }))];
    const slice = all.slice(page.offset, page.offset + page.perPage);
    const rows = await Promise.all(
      slice.map(async ({ m, type }) => {
        const id = Number(m.gsi1sk);
        const source = type === "Project" ? await findProject(id) : await findGroup(id);
        return source ? { source_id: id, source_name: source.name, source_type: type, access_level: m.accessLevel } : undefined;
      }),
    );
    setPageHeaders(c, page, all.length > page.offset + page.perPage, all.length);
    return rows.filter((r) => r !== undefined);
  },
);
export const handler = lambda(endpoint);
