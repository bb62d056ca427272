/**
 * isomorphic-git, loaded on its first use instead of when the function's bundle is imported.
 *
 * Twenty-one Lambdas carry it, yet many of their invocations never open a repository: a request
 * without a token, a project that does not exist, a private one the caller cannot see. Evaluating
 * isomorphic-git and its dependencies costs a cold start tens of milliseconds before the first
 * answer; behind `import()` the bundler wraps it so that this happens only when a command runs.
 * Every isomorphic-git command is async, so this stand-in keeps their exact types: each one awaits
 * the module once, then calls the real command. Its other members (`Errors`…) are not offered:
 * `gitErrorCode` tells its errors apart.
 */
type IsomorphicGit = typeof import("isomorphic-git").default;
type GitCommands = { [K in keyof IsomorphicGit as IsomorphicGit[K] extends (...args: never[]) => Promise<unknown> ? K : never]: IsomorphicGit[K] };

let loading: Promise<IsomorphicGit> | undefined;
const load = () => (loading ??= import("isomorphic-git").then((m) => m.default));

// Pure: a bundle whose code never runs a command drops this, and with it isomorphic-git.
export const git = /* @__PURE__ */ new Proxy({} as GitCommands, {
  get: (_target, command: string) =>
    async (...args: unknown[]) => {
      const real = await load();
      return (real[command as keyof IsomorphicGit] as (...a: unknown[]) => unknown)(...args);
    },
});

/**
 * The class name of an isomorphic-git error (`NotFoundError`, `AmbiguousError`…): its errors carry
 * it as `code`, which can be tested without loading the module for its `Errors` classes.
 */
export function gitErrorCode(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : undefined;
}
