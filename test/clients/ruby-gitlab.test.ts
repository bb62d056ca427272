/**
 * The Ruby gem `gitlab` (Debian's ruby-gitlab, 4.17) run unchanged against the service: its
 * `create_tag` still sends `release_description`, which GitLab's API no longer declares and drops,
 * so it must work here too; its Markdown, Sidekiq metrics and public snippet calls as well. Part of
 * `npm run test:clients`; a machine without the gem fails here with the command that installs it.
 */
import { describe, it, expect, beforeAll, afterAll } from "vitest";
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { ownRuntime } from "../support/own-runtime.js";
import { requireTool } from "./tools.js";

/** Debian's Ruby, where ruby-gitlab installs. */
const RUBY = "/usr/bin/ruby";
let instance: Awaited<ReturnType<typeof ownRuntime>>;
/** What the script saw, run once. */
let seen: Record<string, unknown>;

const runScript = async (script: string) => {
  const { stdout } = await promisify(execFile)(RUBY, [join(import.meta.dirname, script)], {
    env: { ...process.env, GITLAB_URL: instance.runtime.baseUrl, GITLAB_TOKEN: instance.runtime.bootstrap.token! },
  });
  return JSON.parse(stdout);
};

beforeAll(async () => {
  requireTool(RUBY, ["-e", "require 'gitlab'"], "sudo apt-get install ruby-gitlab");
  instance = await ownRuntime();
  seen = await runScript("ruby_gitlab.rb");
});
afterAll(() => instance?.stop());

describe("the Ruby gem gitlab", () => {
  it("creates a tag with a release description, reads it back, and gets one project member", () => {
    expect(seen.gem).toMatch(/^4\./);
    expect(seen.tag).toEqual(["v1.0", "Release 1.0", true]);
    expect(seen.tag_read).toBe("v1.0");
    expect(seen.tags).toEqual(["v1.0"]);
    expect(seen.member).toEqual([true, 30]);
  });

  it("renders Markdown, reads the Sidekiq metrics and lists public snippets", () => {
    expect(seen.markdown).toBe("<p>Hello <strong>world</strong></p>");
    expect(seen.sidekiq).toEqual(["jobs", "processes", "queues"]);
    expect(seen.sidekiq_busy).toEqual(expect.any(Number));
    expect(seen.public_snippets).toBe(true);
  });
});
