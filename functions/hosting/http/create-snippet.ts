import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { paramError } from "../../platform/http/errors.js";
import { requestOrigin } from "../../platform/http/request-origin.js";
import { createSnippet } from "../domain/snippets.js";
import { visibility } from "./schemas.js";
import { renderSnippet } from "./snippet-common.js";

const file = z.strictObject({ file_path: z.string().check(z.minLength(1), z.maxLength(4096)), content: z.string() });

/**
 * Any user with `api` scope. `files` is the current form; the legacy `file_name` + `content` pair
 * (one file) is still accepted, as on GitLab, but not together with `files`.
 */
export const endpoint = defineEndpoint(
  {
    summary: "Create a personal snippet",
    access: "write",
    status: 201,
    body: z.object({
      title: z.string().check(z.minLength(1), z.maxLength(255)),
      description: z.optional(z.string().check(z.maxLength(100_000))),
      visibility: z.optional(visibility),
      files: z.optional(z.array(file).check(z.minLength(1), z.maxLength(100))),
      file_name: z.optional(z.string().check(z.minLength(1), z.maxLength(4096))),
      content: z.optional(z.string()),
    }),
  },
  async ({ c, principal, body }) => {
    if (body.files && body.content !== undefined) throw paramError("content, files are mutually exclusive");
    if (!body.files && body.content === undefined) throw paramError("content, files are missing, exactly one parameter must be provided");
    if (body.content !== undefined && !body.file_name) throw paramError("file_name is missing");
    const files = body.files ?? [{ file_path: body.file_name!, content: body.content! }];
    const snippet = await createSnippet(principal, { title: body.title, description: body.description, visibility: body.visibility, files, createdFrom: requestOrigin(c) });
    return renderSnippet(c, principal, snippet);
  },
);
export const handler = lambda(endpoint);
