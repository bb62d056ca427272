import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { notFound } from "../../platform/http/errors.js";
import { commitSignature } from "../domain/git/index.js";
import { readRepository } from "../domain/read-path.js";
import { commitParams } from "./commit-schemas.js";
import { codeReader } from "./repository-access.js";
import { signatureResponse } from "./signature-view.js";

/**
 * GitLab's "Get signature of a commit": PGP, SSH or X.509, with `commit_source: "gitaly"` as GitLab
 * reads commits; an unsigned commit is `404 Signature Not Found` (GitLab's current message; the
 * page's example shows an older one).
 */
export const endpoint = defineEndpoint({ summary: "Signature of a commit", access: "public", params: commitParams }, async ({ c, principal, params }) => {
  const { project } = await codeReader(principal, params.id, { denied: "forbidden" });
  const signature = await readRepository("project", project.id, project, (loc) => commitSignature(loc.storage, loc.relativePath, params.sha));
  if (signature === "commit") throw notFound("Commit");
  if (signature === "none") throw notFound("Signature");
  return signatureResponse(c, signature, { commit_source: "gitaly" });
});
export const handler = lambda(endpoint);
