/**
 * python-gitlab (Debian's python3-gitlab) reads and writes one file through `project.files`, as its
 * documentation shows; the repository is checked with git afterwards. Part of `npm run test:clients`.
 */
import { describe, it, expect, beforeAll } from "vitest";
import { createHash } from "node:crypto";
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { adminToken, baseUrl } from "../support/api.js";
import { commitSubjects, git, repoPaths } from "../support/git.js";
import { DEBIAN_PYTHON, requireTool } from "./tools.js";

beforeAll(() => requireTool(DEBIAN_PYTHON, ["-c", "import gitlab"], "sudo apt-get install python3-gitlab"));

describe("python-gitlab project.files", () => {
  it("creates, gets, updates, blames and deletes a file, with GitLab's errors", async () => {
    const { stdout } = await promisify(execFile)(DEBIAN_PYTHON, [join(import.meta.dirname, "repository_files.py")], {
      env: { ...process.env, GITLAB_URL: baseUrl(), GITLAB_TOKEN: adminToken() },
    });
    const seen = JSON.parse(stdout);
    const dir = repoPaths("default", "project", seen.project_id)[0]!;
    expect(seen.created).toEqual({ file_path: "lib/class.rb", branch: "main" });
    expect(seen.duplicate).toEqual({ status: 400, message: "A file with this name already exists" });
    const created = git(dir, "rev-list", "-1", "--grep=python create", "main").trim();
    expect(seen.got).toEqual({
      file_name: "class.rb",
      file_path: "lib/class.rb",
      size: 13,
      encoding: "base64",
      content_sha256: createHash("sha256").update("class Py\nend\n").digest("hex"),
      ref: "main",
      blob_id: git(dir, "rev-parse", `${created}:lib/class.rb`).trim(),
      commit_id: created,
      last_commit_id: created,
      execute_filemode: false,
    });
    expect(seen.decoded).toBe("class Py\nend\n");
    expect(seen.raw).toBe("class Py\nend\n");
    expect(seen.after_update).toBe("class Py2\nend\n");
    expect(seen.blame).toEqual([
      ["python update", ["class Py2"]],
      ["python create", ["end"]],
    ]);
    expect(seen.stale).toEqual({ status: 400, message: "You are attempting to update a file that has changed since you started editing it." });
    expect(seen.after_delete).toEqual({ status: 404, message: "404 File Not Found" });
    expect(commitSubjects(dir)).toEqual(["python delete", "python update", "python create", "Initial commit"]);
    expect(git(dir, "log", "-1", "--format=%an <%ae>", created).trim()).toBe("Python Client <py@example.com>");
  });
});
