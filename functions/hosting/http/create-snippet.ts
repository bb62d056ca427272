import * as z from "zod";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { paramError } from "../../platform/http/errors.js";
import { createSnippet } from "../domain/snippets.js";
import { visibility } from "./schemas.js";
import { renderSnippet } from "./snippet-common.js";

const file = z.object({ file_path: z.string().min(1).max(4096), content: z.string() }).strict();

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
      title: z.string().min(1).max(255),
      description: z.string().max(100_000).optional(),
      visibility: visibility.optional(),
      files: z.array(file).min(1).max(100).optional(),
      file_name: z.string().min(1).max(4096).optional(),
      content: z.string().optional(),
    }),
  },
  async ({ c, principal, body }) => {
    if (body.files && body.content !== undefined) throw paramError("content, files are mutually exclusive");
    if (!body.files && body.content === undefined) throw paramError("content, files are missing, exactly one parameter must be provided");
    if (body.content !== undefined && !body.file_name) throw paramError("file_name is missing");
    const files = body.files ?? [{ file_path: body.file_name!, content: body.content! }];
    const snippet = await createSnippet(principal, { title: body.title, description: body.description, visibility: body.visibility, files });
    return renderSnippet(c, principal, snippet);
  },
);
export const handler = lambda(endpoint);
