/** Request schemas of the routes below `/projects/:id/repository/commits/:sha`. */
import * as z from "zod/mini";
import { idOrPath } from "../../platform/http/params.js";

/** `:sha`: a commit id or any ref naming one (GitLab accepts branch and tag names here too). */
export const commitParams = z.object({ id: idOrPath(), sha: z.string().check(z.minLength(1), z.maxLength(1024)) });
