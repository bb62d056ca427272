import * as z from "zod";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { paramError } from "../../platform/http/errors.js";
import { updateSnippet, writableSnippet } from "../domain/snippets.js";
import { visibility } from "./schemas.js";
import { renderSnippet, snippetParams } from "./snippet-common.js";

const action = z
  .object({
    action: z.enum(["create", "update", "delete", "move"]),
    file_path: z.string().min(1).max(4096),
    previous_path: z.string().min(1).max(4096).optional(),
    content: z.string().optional(),
  })
  .strict();

/** Author or admin (403 for others who can see it). File actions become one commit on `main`. */
export const endpoint = defineEndpoint(
  {
    summary: "Update a personal snippet",
    access: "write",
    params: snippetParams,
    body: z.object({
      title: z.string().min(1).max(255).optional(),
      description: z.string().max(100_000).optional(),
      visibility: visibility.optional(),
      files: z.array(action).min(1).max(100).optional(),
    }),
  },
  async ({ c, principal, params, body }) => {
    if (Object.values(body).every((v) => v === undefined)) {
      throw paramError("title, description, visibility, files are missing, at least one parameter must be provided");
    }
    const snippet = await writableSnippet(principal, params.id);
    const updated = await updateSnippet(principal, snippet, body);
    return renderSnippet(c, principal, updated);
  },
);
export const handler = lambda(endpoint);
