/**
 * Secrets, set per stage with `sst secret set <Name> <value>`.
 *
 * BootstrapAdminToken: a token accepted as an administrator's before the first real admin exists.
 * Optional: the empty placeholder means "not set", so a stage deploys without it and the app treats
 * an empty value as no bootstrap token. Authentication runs in every route, so every route links it.
 */
export const bootstrapAdminToken = new sst.Secret("BootstrapAdminToken", "");
