/**
 * The bundle-size budget each function is held to (test/platform/bundle-size.test.ts, `npm run
 * build`): this ratio × a bare Hono + `@aws-sdk/client-dynamodb` handler bundled in the same run,
 * plus isomorphic-git bundled alone for functions that read or write repositories.
 */
export const BUDGET_RATIO = 1.5;
