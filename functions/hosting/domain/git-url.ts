/** Clone URLs (`http_url_to_repo`) of projects, wikis and snippets. */
/**
 * Where clone URLs point: the instance's own URL locally (one server serves the API and Git); on AWS
 * the Git function URL, which a deployment passes in `FORGELINE_GIT_URL` (API Gateway serves the API).
 */
export const gitBaseUrl = (baseUrl: string) => process.env.FORGELINE_GIT_URL?.replace(/\/+$/, "") || baseUrl;
