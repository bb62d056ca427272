/**
 * The bundle-size budget each function is held to (test/platform/bundle-size.test.ts, `npm run
 * build`): this ratio × a bare Hono + `@aws-sdk/client-dynamodb` handler bundled in the same run,
 * plus isomorphic-git bundled alone for functions that read or write repositories, and compressjs's
 * Bzip2 module bundled alone for the one that writes bzip2 (repository archives: no Node built-in
 * compresses bzip2, so the capability comes with its library, loaded only for those formats).
 *
 * Decision: the same kind of allowance for rendering Markdown (`POST /markdown`, wiki pages read with
 * `render_html=true`): `marked` and `xss` bundled alone (`MARKDOWN_ALONE`), granted to a function
 * whose bundle holds `marked`. Rendering GitLab Flavored Markdown safely needs a maintained parser and
 * a maintained allowlist sanitizer, never hand-written ones; these two were the smallest that do it
 * without a DOM (about 70 KB together, where `sanitize-html` alone brings postcss and 200 KB). Only
 * the renderer's own functions import `platform/markdown.ts`; everything else they carry fits the
 * normal budget.
 *
 * The target is 1.25×, and every function meets it. The largest are the functions that start Step
 * Functions executions (`PUT /projects/:id`, which schedules a move when `repository_storage`
 * changes, and the move schedulers): `@aws-sdk/client-sfn` is 23 KiB of them. What keeps them in is
 * that the base every function shares stays small: DynamoDB through `platform/db/document.ts` rather
 * than the document client, Hono's smallest router preset, an instance-config schema built from the
 * zod pieces requests use. Never raise it to fit code that could live elsewhere; a capability that
 * needs a client no function had is a decision to record here.
 */
export const BUDGET_RATIO = 1.25;
