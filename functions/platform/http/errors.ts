/**
 * One error policy. Domain code throws `ApiError`s (or lets zod/JSON errors escape); the HTTP adapter
 * renders them in the caller's surface format. A full disk, however it shows (`out-of-space.ts`), is
 * a 507. Anything else becomes a 500 with a generic body and a logged stack, never the raw message.
 *
 * GitLab shapes (`/api/v4`): `{"message":"401 Unauthorized"}`, `{"error":"name is missing"}`,
 * `{"message":{"field":["is invalid"]}}`.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers: Record<string, string> = {},
  ) {
    super(typeof body === "string" ? body : JSON.stringify(body));
    this.name = "ApiError";
  }
}

export const unauthorized = () => new ApiError(401, { message: "401 Unauthorized" });
export const forbidden = (why?: string) =>
  new ApiError(403, { message: why ? `403 Forbidden - ${why}` : "403 Forbidden" });
/** `notFound("Project")` → `{"message":"404 Project Not Found"}`; `notFound()` → `404 Not found`. */
export const notFound = (what?: string) =>
  new ApiError(404, { message: what ? `404 ${what} Not Found` : "404 Not found" });
export const badRequest = (reason: string) => new ApiError(400, { message: `400 Bad request - ${reason}` });
/** Grape-style parameter error: `{"error":"source_storage_name is missing"}`. */
export const paramError = (text: string) => new ApiError(400, { error: text });
/** ActiveRecord-style validation error: `{"message":{"name":["has already been taken"]}}`. */
export const validationError = (fields: Record<string, string[]>) => new ApiError(400, { message: fields });
export const conflict = (message: string) => new ApiError(409, { message });
export const tooLarge = () => new ApiError(413, { message: "413 Request Entity Too Large" });
/**
 * The disk a write needed is full (`out-of-space.ts`): WebDAV's 507, which says the request may
 * succeed later. Its message is `STORAGE_FULL_MESSAGE` after the status, spelt out, so that every
 * bundle carries this one string alone.
 */
export const INSUFFICIENT_STORAGE = "507 Insufficient Storage: The storage is full. Try again once space is freed.";
export const insufficientStorage = () => new ApiError(507, { message: INSUFFICIENT_STORAGE });
