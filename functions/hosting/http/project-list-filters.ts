/**
 * What the project lists of a group and of a user share (GitLab's projects API): the filters'
 * query parameters and the test they make, the orders and their comparator. `star_count` orders as
 * `created_at`: no project has stars here, every count is 0.
 */
import * as z from "zod/mini";
import { bool } from "../../platform/http/params.js";
import type { Project } from "../domain/projects.js";
import { PROJECT_ORDERS, searchTextOf, sortValue, type ProjectOrder } from "../domain/project-listing.js";
import { visibility } from "./schemas.js";

/** `order_by`, `sort` and `simple`. */
export const projectOrderQuery = {
  order_by: z._default(z.enum([...PROJECT_ORDERS, "star_count"]), "created_at"),
  sort: z._default(z.enum(["asc", "desc"]), "desc"),
  simple: z.optional(bool()),
};

/** The filters that narrow a list by the project item alone. */
export const projectFilterQuery = {
  archived: z.optional(bool()),
  visibility: z.optional(visibility),
  search: z.optional(z.string().check(z.maxLength(255))),
  with_issues_enabled: z.optional(bool()),
  with_merge_requests_enabled: z.optional(bool()),
};

type Filters = { archived?: boolean; visibility?: Project["visibility"]; search?: string; with_issues_enabled?: boolean; with_merge_requests_enabled?: boolean };

/** The projects `projectFilterQuery`'s parameters keep. */
export function keepProject(query: Filters): (p: Project) => boolean {
  const term = query.search?.toLowerCase();
  return (p) =>
    (query.archived === undefined || (p.archived ?? false) === query.archived) &&
    (!query.visibility || p.visibility === query.visibility) &&
    (!term || searchTextOf(p).includes(term)) &&
    (!query.with_issues_enabled || p.features.issues_access_level !== "disabled") &&
    (!query.with_merge_requests_enabled || p.features.merge_requests_access_level !== "disabled");
}

/** Orders `projects` in place by `order_by` (`star_count` as `created_at`) and `sort`. */
export function orderProjects(projects: Project[], by: ProjectOrder | "star_count", sort: "asc" | "desc"): Project[] {
  const field = by === "star_count" ? "created_at" : by;
  return projects.sort((a, b) => (sortValue(a, field) < sortValue(b, field) ? -1 : 1) * (sort === "asc" ? 1 : -1));
}
