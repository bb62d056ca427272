/**
 * Form bodies and booleans as GitLab (Grape on Rack) reads them: `key[]=` arrays, `key[sub]=` hashes,
 * `key[][field]=` arrays of hashes, and `True`/`1`/`yes` in any case, on every route through the
 * platform layer.
 */
import { describe, it, expect, beforeAll } from "vitest";
import { parseFormParams } from "../../functions/platform/http/form.js";
import { grapeBoolean } from "../../functions/platform/http/params.js";
import { ApiError } from "../../functions/platform/http/errors.js";
import { api, adminToken, newUser, unique } from "../support/api.js";

const form = (pairs: Array<[string, string]>) => ({
  raw: new URLSearchParams(pairs).toString(),
  headers: { "Content-Type": "application/x-www-form-urlencoded" },
});

describe("the form parser", () => {
  it.each([
    ["plain keys", [["name", "x"], ["n", "1"]], { name: "x", n: "1" }],
    ["arrays", [["scopes[]", "api"], ["scopes[]", "read_api"]], { scopes: ["api", "read_api"] }],
    ["hashes", [["w[default]", "0"], ["w[cluster]", "100"]], { w: { default: "0", cluster: "100" } }],
    ["nested hashes", [["a[b][c]", "1"], ["a[b][d]", "2"]], { a: { b: { c: "1", d: "2" } } }],
    [
      "arrays of hashes: a repeated field starts the next hash",
      [["actions[][action]", "create"], ["actions[][file_path]", "a"], ["actions[][action]", "delete"], ["actions[][file_path]", "b"]],
      { actions: [{ action: "create", file_path: "a" }, { action: "delete", file_path: "b" }] },
    ],
    ["arrays inside hashes of arrays fill the last hash", [["x[][tags][]", "a"], ["x[][tags][]", "b"]], { x: [{ tags: ["a", "b"] }] }],
    ["the last plain value wins", [["name", "a"], ["name", "b"]], { name: "b" }],
  ] as Array<[string, Array<[string, string]>, unknown]>)("%s", (_, pairs, expected) => {
    expect(parseFormParams(pairs)).toEqual(expected);
  });

  it.each([
    ["a name that is a hash and a string", [["a", "1"], ["a[b]", "2"]], "a[b] conflicts with another parameter of the same name"],
    ["a name that is a list and a hash", [["a[]", "1"], ["a[b]", "2"]], "a[b] conflicts with another parameter of the same name"],
    ["unbalanced brackets", [["a[b", "1"]], "a[b is not a valid parameter name"],
    ["nesting past any client's", [["a[1][2][3][4][5][6][7][8][9]", "x"]], "a[1][2][3][4][5][6][7][8][9] is not a valid parameter name"],
  ] as Array<[string, Array<[string, string]>, string]>)("refuses %s with a 400 naming it", (_, pairs, message) => {
    const thrown = (() => {
      try {
        parseFormParams(pairs);
      } catch (err) {
        return err;
      }
    })();
    expect(thrown).toBeInstanceOf(ApiError);
    expect((thrown as ApiError).status).toBe(400);
    expect((thrown as ApiError).body).toEqual({ error: message });
  });
});

describe("booleans", () => {
  it.each([
    [["true", "True", "TRUE", "1", "t", "yes", "Y", "on", true, 1], true],
    [["false", "False", "FALSE", "0", "f", "no", "N", "off", false, 0], false],
    [["", "maybe", "2", 2, null, {}], undefined],
  ] as Array<[unknown[], boolean | undefined]>)("spell %s", (spellings, value) => {
    for (const s of spellings) expect(grapeBoolean(s)).toBe(value);
  });
});

describe("over HTTP", () => {
  let user: Awaited<ReturnType<typeof newUser>>;
  let project: { id: number };
  beforeAll(async () => {
    user = await newUser();
    project = (await api("POST", "/api/v4/projects", { token: user.token, body: { name: unique("form"), initialize_with_readme: true } })).body;
  });

  it("creates a token as GitLab's documentation does: --data \"scopes[]=api\"", async () => {
    const expiresAt = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10); // within GitLab's maximum lifetime
    const res = await api("POST", `/api/v4/users/${user.id}/personal_access_tokens`, {
      token: adminToken(),
      ...form([["name", "ci"], ["scopes[]", "api"], ["scopes[]", "read_repository"], ["expires_at", expiresAt]]),
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name: "ci", scopes: ["api", "read_repository"], expires_at: expiresAt });
  });

  it("commits with actions[][…] form fields", async () => {
    const res = await api("POST", `/api/v4/projects/${project.id}/repository/commits`, {
      token: user.token,
      ...form([
        ["branch", "main"],
        ["commit_message", "Two files by form"],
        ["actions[][action]", "create"],
        ["actions[][file_path]", "a.txt"],
        ["actions[][content]", "a\n"],
        ["actions[][action]", "create"],
        ["actions[][file_path]", "b.txt"],
        ["actions[][content]", "b\n"],
      ]),
    });
    expect(res.status).toBe(201);
    // python-gitlab's spelling of booleans in a query string.
    const tree = await api("GET", `/api/v4/projects/${project.id}/repository/tree?recursive=True`, { token: user.token });
    expect(tree.status).toBe(200);
    expect(tree.body.map((t: { path: string }) => t.path).sort()).toEqual(["README.md", "a.txt", "b.txt"]);
  });

  it("sets storage weights with the bracket form, and refuses an unknown storage in it", async () => {
    const current = (await api("GET", "/api/v4/application/settings", { token: adminToken() })).body.repository_storages_weighted as Record<string, number>;
    const res = await api("PUT", "/api/v4/application/settings", {
      token: adminToken(),
      ...form(Object.entries(current).map(([k, v]) => [`repository_storages_weighted[${k}]`, String(v)])),
    });
    expect(res.status).toBe(200);
    expect(res.body.repository_storages_weighted).toEqual(current);
    const bad = await api("PUT", "/api/v4/application/settings", { token: adminToken(), ...form([["repository_storages_weighted[nowhere]", "5"]]) });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/repository_storages_weighted does not have a valid value/);
  });

  it("accepts True on list filters and says which parameter is not a boolean", async () => {
    const listed = await api("GET", "/api/v4/projects?membership=True", { token: user.token });
    expect(listed.status).toBe(200);
    expect(listed.body.map((p: { id: number }) => p.id)).toContain(project.id);
    const bad = await api("GET", "/api/v4/projects?membership=maybe", { token: user.token });
    expect(bad).toMatchObject({ status: 400, body: { error: "membership is invalid" } });
  });
});
