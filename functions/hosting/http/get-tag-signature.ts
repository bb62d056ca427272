import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { notFound } from "../../platform/http/errors.js";
import { tagSignature } from "../domain/git/index.js";
import { readRepository } from "../domain/read-path.js";
import { codeReader } from "./repository-access.js";
import { tagParams } from "./ref-views.js";
import { signatureResponse } from "./signature-view.js";

/**
 * GitLab's "Get X.509 signature of a tag": `404 Tag Not Found`, `404 Signature Not Found` for a
 * lightweight or unsigned tag. GitLab's `TagSignature` details X.509 signatures only: a tag signed
 * another way answers its `signature_type` alone.
 */
export const endpoint = defineEndpoint({ summary: "Signature of a tag", access: "public", params: tagParams }, async ({ c, principal, params }) => {
  const { project } = await codeReader(principal, params.id, { denied: "forbidden" });
  const signature = await readRepository("project", project.id, project, (loc) => tagSignature(loc.storage, loc.relativePath, params.tag_name));
  if (signature === "tag") throw notFound("Tag");
  if (signature === "none") throw notFound("Signature");
  return signature.type === "X509" ? signatureResponse(c, signature) : { signature_type: signature.type };
});
export const handler = lambda(endpoint);
