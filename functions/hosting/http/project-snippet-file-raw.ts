import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { notFound } from "../../platform/http/errors.js";
import { idOrPath, positiveInt } from "../../platform/http/params.js";
import { visibleProjectSnippet } from "../domain/project-snippets.js";
import { readSnippetFile } from "../domain/snippets.js";
import { rawText } from "./raw-content.js";

/** `ref` and `file_path` are URL-encoded (`dir%2Ffile.txt`), as for personal snippets. */
export const endpoint = defineEndpoint(
  {
    summary: "Raw content of one project snippet file at a ref",
    access: "public",
    params: z.object({ id: idOrPath(), snippet_id: positiveInt(), ref: z.string().check(z.minLength(1), z.maxLength(255)), file_path: z.string().check(z.minLength(1), z.maxLength(4096)) }),
  },
  async ({ c, principal, params }) => {
    const { snippet } = await visibleProjectSnippet(principal, params.id, params.snippet_id);
    const content = await readSnippetFile(snippet, params.ref, params.file_path);
    if (!content) throw notFound("File");
    return rawText(c, content, params.file_path);
  },
);
export const handler = lambda(endpoint);
