/**
 * The default branch protection parameters of application settings and groups: GitLab's level
 * (`default_branch_protection`, 0–4) and its 17.0 hash (`default_branch_protection_defaults`,
 * every key optional: a request changes the keys it gives).
 */
import * as z from "zod/mini";
import { bool, int } from "../../platform/http/params.js";

const levels = () => z.optional(z.array(z.object({ access_level: z.pipe(int(), z.literal([0, 30, 40, 60])) })).check(z.maxLength(10)));

export const branchProtectionFields = {
  default_branch_protection: z.optional(z.pipe(int(), z.literal([0, 1, 2, 3, 4]))),
  default_branch_protection_defaults: z.optional(
    z.object({ allowed_to_push: levels(), allow_force_push: z.optional(bool()), allowed_to_merge: levels(), developer_can_initial_push: z.optional(bool()) }),
  ),
};
