import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { idOrPath } from "../../platform/http/params.js";
import { baseUrl } from "../../platform/http/urls.js";
import { namespaceView, readableNamespace } from "../domain/namespaces.js";

/** By id (as `GET /namespaces` shows it) or URL-encoded full path; the caller's own or a group it can see. */
export const endpoint = defineEndpoint(
  { summary: "One namespace", access: "read", params: z.object({ id: idOrPath() }) },
  async ({ c, principal, params }) => namespaceView(await readableNamespace(principal, params.id), baseUrl(c)),
);
export const handler = lambda(endpoint);
