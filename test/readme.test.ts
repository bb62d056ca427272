/** Runs the README's walk-through verbatim (bash + curl) against the test runtime. */
import { describe, it, expect } from "vitest";
import { execFileSync } from "node:child_process";
import { adminToken, baseUrl } from "./support/api.js";
import { commitSubjects, repoPaths } from "./support/git.js";
import { codeBlocks, readDoc, section } from "./docs/support.js";

function walkthrough(): string[] {
  const block = codeBlocks(section(readDoc("README.md"), "Walk-through")).find((b) => b.language === "bash")!.code;
  // Join continuation lines, then drop the line that reads the token file (the test supplies TOKEN/API).
  return block.replace(/\\\n\s*/g, "").split("\n").filter((l) => l.trim() && !l.startsWith("export TOKEN"));
}

describe("README walk-through", () => {
  it("works verbatim: token → group → project → commit → list projects by storage", () => {
    const lines = walkthrough();
    expect(lines).toHaveLength(5);
    const outputs = lines.map((line) =>
      execFileSync("bash", ["-c", line], { encoding: "utf8", env: { ...process.env, TOKEN: adminToken(), API: `${baseUrl()}/api/v4` } }),
    );
    expect(JSON.parse(outputs[0]!).version).toBeDefined();
    expect(JSON.parse(outputs[1]!)).toMatchObject({ path: "platform", full_path: "platform" });
    const project = JSON.parse(outputs[2]!);
    expect(project).toMatchObject({ path_with_namespace: "platform/api", repository_storage: "default" });
    expect(JSON.parse(outputs[3]!)).toMatchObject({ title: "Add hello" });
    const listed = JSON.parse(outputs[4]!) as Array<{ path_with_namespace: string; repository_storage: string }>;
    expect(listed.find((p) => p.path_with_namespace === "platform/api")?.repository_storage).toBe("default");
    expect(commitSubjects(repoPaths("default", "project", project.id)[0]!)).toEqual(["Add hello", "Initial commit"]);
  });
});
