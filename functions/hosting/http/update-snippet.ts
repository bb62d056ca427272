import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { paramError } from "../../platform/http/errors.js";
import { updateSnippet, writableSnippet } from "../domain/snippets.js";
import { visibility } from "./schemas.js";
import { renderSnippet, snippetParams } from "./snippet-common.js";

const action = z.strictObject({
  action: z.enum(["create", "update", "delete", "move"]),
  file_path: z.string().check(z.minLength(1), z.maxLength(4096)),
  previous_path: z.optional(z.string().check(z.minLength(1), z.maxLength(4096))),
  content: z.optional(z.string()),
});

/** Author or admin (403 for others who can see it). File actions become one commit on `main`. */
export const endpoint = defineEndpoint(
  {
    summary: "Update a personal snippet",
    access: "write",
    params: snippetParams,
    body: z.object({
      title: z.optional(z.string().check(z.minLength(1), z.maxLength(255))),
      description: z.optional(z.string().check(z.maxLength(100_000))),
      visibility: z.optional(visibility),
      files: z.optional(z.array(action).check(z.minLength(1), z.maxLength(100))),
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
