/**
 * Clone URLs: on one machine the instance's own URL serves the API and Git; on AWS the Git function
 * URL does (`FORGELINE_GIT_URL`, set by `stacks/`), while web URLs stay on the API's host.
 */
import { describe, it, expect, afterEach } from "vitest";
import { projectView } from "../../functions/hosting/domain/project-view.js";
import type { Project } from "../../functions/hosting/domain/projects.js";

const project = {
  id: 7,
  name: "API",
  path: "api",
  description: "",
  visibility: "private",
  namespace: { kind: "group", id: 3, name: "Platform", path: "platform", fullPath: "platform", parentId: null },
  defaultBranch: "main",
  features: {},
  creatorId: 1,
  createdAt: "2026-11-26T00:00:00.000Z",
  lastActivityAt: "2026-11-26T00:00:00.000Z",
  storage: "default",
  relativePath: "@hashed/x",
  readOnly: false,
} as unknown as Project;

afterEach(() => {
  delete process.env.FORGELINE_GIT_URL;
});

describe("http_url_to_repo", () => {
  it("is on the instance's URL when no Git function URL is configured", () => {
    const view = projectView(project, "http://127.0.0.1:3000", { admin: false });
    expect(view.http_url_to_repo).toBe("http://127.0.0.1:3000/platform/api.git");
  });

  it("is on the Git function URL on AWS; the web URL stays on the API's host", () => {
    process.env.FORGELINE_GIT_URL = "https://abc123.lambda-url.eu-west-1.on.aws/";
    const view = projectView(project, "https://api.example.com", { admin: false });
    expect(view.http_url_to_repo).toBe("https://abc123.lambda-url.eu-west-1.on.aws/platform/api.git");
    expect(view.web_url).toBe("https://api.example.com/platform/api");
  });
});
