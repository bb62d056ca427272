/**
 * Git over HTTP: one function behind its own function URL (response streaming), mounted on the
 * local server beside the API. Part of the one route table, `functions/routes.ts`.
 */
import type { WorkerSpec } from "../../route-spec.js";

/** The paths it serves (Hono syntax); the first also redirects clone URLs typed without `.git`. */
export const GIT_HTTP_PATHS = ["/:repository{.+}/info/refs", "/:repository{.+\\.git}/git-upload-pack", "/:repository{.+\\.git}/git-receive-pack"] as const;

export const gitHttpWorkers: WorkerSpec[] = [
  {
    name: "GitHttp",
    module: "hosting/git-http/http",
    kind: "url",
    paths: [...GIT_HTTP_PATHS],
    streaming: true,
  },
];
