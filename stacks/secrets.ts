/**
 * Secrets, set per stage with `sst secret set <Name> <value>`.
 *
 * BootstrapAdminToken: on an empty stage, the first request presenting this token creates the
 * administrator `root` with it (functions/identity/domain/auth.ts). Optional: the empty placeholder
 * means "not set". Authentication runs in every route, so every route links it.
 *
 * SecretKey: 32 bytes (base64 or 64 hex) that encrypt third-party tracker tokens at rest; required
 * by the error-tracking and web functions on AWS.
 */
export const bootstrapAdminToken = new sst.Secret("BootstrapAdminToken", "");
export const secretKey = new sst.Secret("SecretKey");
