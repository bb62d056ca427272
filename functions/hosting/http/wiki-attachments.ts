/**
 * GitLab's `POST /projects/:id/wikis/attachments` and `POST /groups/:id/wikis/attachments`: a file
 * (multipart `file`, required) committed to the wiki repository under `uploads/`, on `branch` (default
 * the wiki's); Developer+ as for pages (403 below; a wiki feature turned off, 403). It takes the wiki's
 * write lease, so it waits for other writes and is refused (409) while a storage move holds the
 * repository. 201 with GitLab's entity: the file name and path, the branch, and a Markdown link
 * (`![name](path)` for images, video and audio, which render inline; `[name](path)` otherwise).
 */
import * as z from "zod/mini";
import { defineEndpoint, type Endpoint } from "../../platform/http/endpoint.js";
import { uploadAttachment, type WikiOwnerKind } from "../domain/wikis.js";
import { authorOf, wikiParams, writableWiki } from "./wiki-common.js";

/** What GitLab's Markdown link builder embeds (`image_or_video_or_audio?`), by extension. */
const EMBEDDABLE = /\.(png|jpe?g|gif|bmp|tiff?|ico|webp|svg|mp4|m4v|mov|webm|ogv|mp3|oga|ogg|spx|wav|flac|aac|m4a)$/i;

/** The uploaded name as GitLab keeps it: the base name, without control characters. */
export function attachmentName(name: string): string {
  const base = name.split(/[\\/]/).pop()!.replace(/[\x00-\x1f\x7f]/g, "").trim();
  return base.slice(0, 255) || "attachment";
}

export function markdownLink(fileName: string, path: string): string {
  if (!EMBEDDABLE.test(fileName)) return `[${fileName}](${path})`;
  return `![${fileName.replace(/\.[^.]*$/, "")}](${path})`;
}

export const uploadWikiAttachment = (owner: WikiOwnerKind): Endpoint =>
  defineEndpoint(
    {
      summary: `Upload an attachment to the ${owner} wiki repository`,
      access: "write",
      status: 201,
      params: wikiParams,
      body: z.object({ file: z.file(), branch: z.optional(z.string().check(z.regex(/^[A-Za-z0-9._\/-]{1,255}$/))) }),
    },
    async ({ principal, params, body }) => {
      const wiki = await writableWiki(owner, principal, params.id);
      const uploaded = await uploadAttachment(wiki, authorOf(principal), { name: attachmentName(body.file.name), bytes: new Uint8Array(await body.file.arrayBuffer()) }, body.branch);
      return {
        file_name: uploaded.fileName,
        file_path: uploaded.filePath,
        branch: uploaded.branch,
        link: { url: uploaded.filePath, markdown: markdownLink(uploaded.fileName, uploaded.filePath) },
      };
    },
  );
