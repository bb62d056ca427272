/**
 * Wiki attachments (GitLab's wikis.md and group_wikis.md "Upload an attachment to the wiki
 * repository"): the file committed under `uploads/<hash>/<name>` through the wiki's write path.
 */
import { describe, it, expect } from "vitest";
import { execFileSync } from "node:child_process";
import { baseUrl, newUser } from "../support/api.js";
import { commitSubjects, fsck, git, repoPaths } from "../support/git.js";
import { getItem, updateItem } from "../../functions/platform/db/table.js";
import { addMember, newGroup, newProject } from "./support.js";

const PNG = Buffer.from("89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201e2a0b2a90000000049454e44ae426082", "hex");
const READ_ONLY = { status: 409, body: { message: "The repository is temporarily read-only. Please try again later." } };

async function upload(path: string, token: string | undefined, parts: Record<string, Blob | string>, name = "dk.png") {
  const form = new FormData();
  for (const [k, v] of Object.entries(parts)) typeof v === "string" ? form.append(k, v) : form.append(k, v, name);
  const res = await fetch(`${baseUrl()}${path}`, { method: "POST", headers: token ? { "Private-Token": token } : {}, body: form });
  return { status: res.status, body: (await res.json()) as any };
}

const dirOf = async (kind: "project" | "group", id: number) => {
  const item = await getItem<{ storage: string }>(`${kind.toUpperCase()}#${id}`, kind.toUpperCase());
  return repoPaths(item!.storage, kind === "project" ? "project-wiki" : "group-wiki", id)[0]!;
};

describe("POST /projects/:id/wikis/attachments", () => {
  it("commits the file under uploads/<hash>/ (creating the wiki repository) and answers GitLab's entity", async () => {
    const owner = await newUser();
    const project = await newProject(owner.token);
    const res = await upload(`/api/v4/projects/${project.id}/wikis/attachments`, owner.token, { file: new Blob([PNG]) });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toEqual({
      file_name: "dk.png",
      file_path: expect.stringMatching(/^uploads\/[0-9a-f]{32}\/dk\.png$/),
      branch: "main",
      link: { url: res.body.file_path, markdown: `![dk](${res.body.file_path})` },
    });
    const dir = await dirOf("project", project.id);
    expect(commitSubjects(dir)).toEqual(["Upload attachment dk.png"]);
    expect(execFileSync("git", ["-C", dir, "show", `main:${res.body.file_path}`])).toEqual(PNG);
    expect(git(dir, "log", "-1", "--format=%an", "main").trim()).toMatch(/^User /);
    fsck(dir);
    // A second upload of the same name lands beside the first; a file that is not an image links plainly.
    const text = await upload(`/api/v4/projects/${project.id}/wikis/attachments`, owner.token, { file: new Blob(["notes"]) }, "C:\\docs\\notes.txt");
    expect(text.body).toMatchObject({ file_name: "notes.txt", link: { markdown: `[notes.txt](${text.body.file_path})` } });
    expect(commitSubjects(dir)).toEqual(["Upload attachment notes.txt", "Upload attachment dk.png"]);
  });

  it("is Developer+ (403 below, 404 for strangers), needs a file, and is refused while the repository is read-only", async () => {
    const [owner, reporter, stranger] = await Promise.all([newUser(), newUser(), newUser()]);
    const project = await newProject(owner.token);
    await addMember(owner.token, "projects", project.id, reporter.id, 20);
    const path = `/api/v4/projects/${project.id}/wikis/attachments`;
    expect((await upload(path, reporter.token, { file: new Blob([PNG]) })).status).toBe(403);
    expect(await upload(path, stranger.token, { file: new Blob([PNG]) })).toMatchObject({ status: 404, body: { message: "404 Project Not Found" } });
    expect((await upload(path, undefined, { file: new Blob([PNG]) })).status).toBe(401);
    expect(await upload(path, owner.token, { file: "" })).toMatchObject({ status: 400, body: { error: "file is missing" } });
    expect(await upload(path, owner.token, { file: new Blob([PNG]), branch: "a b" })).toMatchObject({ status: 400 });
    // A storage move holds the repository: refused, and no wiki repository is made.
    const moving = await newProject(owner.token);
    await updateItem({ pk: `PROJECT#${moving.id}`, sk: "PROJECT", update: "SET readOnly = :t", values: { ":t": true } });
    expect(await upload(`/api/v4/projects/${moving.id}/wikis/attachments`, owner.token, { file: new Blob([PNG]) })).toMatchObject(READ_ONLY);
    expect((await getItem<{ wikiRepository?: boolean }>(`PROJECT#${moving.id}`, "PROJECT"))!.wikiRepository).toBeUndefined();
  });
});

describe("POST /groups/:id/wikis/attachments", () => {
  it("commits the file to the group wiki, Developer+", async () => {
    const [owner, reporter] = await Promise.all([newUser(), newUser()]);
    const group = await newGroup(owner.token);
    await addMember(owner.token, "groups", group.id, reporter.id, 20);
    const res = await upload(`/api/v4/groups/${group.id}/wikis/attachments`, owner.token, { file: new Blob([PNG]) });
    expect(res).toMatchObject({ status: 201, body: { file_name: "dk.png", branch: "main" } });
    const dir = await dirOf("group", group.id);
    expect(execFileSync("git", ["-C", dir, "show", `main:${res.body.file_path}`])).toEqual(PNG);
    expect((await upload(`/api/v4/groups/${group.id}/wikis/attachments`, reporter.token, { file: new Blob([PNG]) })).status).toBe(403);
  });
});
