import { describe, it, expect } from "vitest";
import { adminToken, api, baseUrl, newUser } from "../support/api.js";

/** A tiny cookie jar over fetch, as a browser would keep it. */
function browser() {
  const jar = new Map<string, string>();
  const store = (res: Response) => {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const [name, value] = pair!.split("=");
      if (value) jar.set(name!, value);
      else jar.delete(name!);
    }
  };
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
  return {
    jar,
    async get(path: string, headers: Record<string, string> = {}) {
      const res = await fetch(baseUrl() + path, { headers: { cookie: cookie(), ...headers }, redirect: "manual" });
      store(res);
      return res;
    },
    async post(path: string, body: string, type: string, headers: Record<string, string> = {}) {
      const res = await fetch(baseUrl() + path, { method: "POST", body, headers: { cookie: cookie(), "content-type": type, ...headers }, redirect: "manual" });
      store(res);
      return res;
    },
  };
}

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const FORM = "application/x-www-form-urlencoded";

async function signIn(b: ReturnType<typeof browser>, token: string, returnTo = "/") {
  const pageRes = await b.get("/users/sign_in");
  const html = await pageRes.text();
  const csrf = /name="authenticity_token" value="([^"]+)"/.exec(html)![1]!;
  return b.post("/users/sign_in", form({ token, authenticity_token: csrf, return_to: returnTo }), FORM);
}

describe("browser sessions", () => {
  it("signs in with a personal access token into an HttpOnly, SameSite=Strict session cookie", async () => {
    const user = await newUser();
    const b = browser();
    expect((await b.get("/")).headers.get("location")).toBe("/users/sign_in?return_to=%2F");
    const res = await signIn(b, user.token, "/somewhere");
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/somewhere");
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith("_forgeline_session="))!;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    expect(cookie).not.toMatch(/Secure/);
    expect(cookie).not.toContain(user.token);
    const me = await b.get("/api/v4/user");
    expect(((await me.json()) as { username: string }).username).toBe(user.username);
    const home = await (await b.get("/")).text();
    expect(home).toContain("Your projects");
  });

  it("reactivates a deactivated user who signs in, as GitLab does", async () => {
    const user = await newUser();
    expect((await api("POST", `/api/v4/users/${user.id}/deactivate`, { token: adminToken() })).body).toBe(true);
    expect((await api("GET", "/api/v4/user", { token: user.token })).status).toBe(401);
    const b = browser();
    const res = await signIn(b, user.token);
    expect(res.headers.get("location")).toBe("/");
    expect((await api("GET", `/api/v4/users/${user.id}`, { token: adminToken() })).body.state).toBe("active");
    expect((await api("GET", "/api/v4/user", { token: user.token })).status).toBe(200);
  });

  it("leaves a deactivated user deactivated when the sign-in is refused for the token's scope", async () => {
    const user = await newUser({ scopes: ["read_user"] });
    expect((await api("POST", `/api/v4/users/${user.id}/deactivate`, { token: adminToken() })).body).toBe(true);
    const res = await signIn(browser(), user.token);
    expect(res.headers.get("location")).toBe(`/users/sign_in?error=${encodeURIComponent("The token needs the api or read_api scope.")}&return_to=%2F`);
    expect(res.headers.getSetCookie().find((c) => c.startsWith("_forgeline_session="))).toBeUndefined();
    expect((await api("GET", `/api/v4/users/${user.id}`, { token: adminToken() })).body.state).toBe("deactivated");
  });

  it("marks the cookie Secure behind HTTPS", async () => {
    const user = await newUser();
    const b = browser();
    const pageRes = await b.get("/users/sign_in", { "x-forwarded-proto": "https" });
    expect(pageRes.headers.getSetCookie()[0]).toMatch(/Secure/);
    const csrf = /name="authenticity_token" value="([^"]+)"/.exec(await pageRes.text())![1]!;
    const res = await b.post("/users/sign_in", form({ token: user.token, authenticity_token: csrf }), FORM, { "x-forwarded-proto": "https" });
    expect(res.headers.getSetCookie().find((c) => c.startsWith("_forgeline_session="))).toMatch(/Secure/);
  });

  it("requires the session's CSRF token on state-changing requests", async () => {
    const user = await newUser();
    const b = browser();
    await signIn(b, user.token);
    const without = await b.post("/api/v4/projects", JSON.stringify({ name: "csrf-less" }), "application/json");
    expect(without.status).toBe(403);
    expect(await without.json()).toEqual({ message: "403 Forbidden - invalid CSRF token" });
    const home = await (await b.get("/")).text();
    const csrf = /<meta name="csrf-token" content="([^"]+)">/.exec(home)![1]!;
    const withToken = await b.post("/api/v4/projects", JSON.stringify({ name: "with-csrf" }), "application/json", { "x-csrf-token": csrf });
    expect(withToken.status).toBe(201);
  });

  it("rejects a forged sign-in form, a bad token, a narrow token and open redirects", async () => {
    const user = await newUser();
    const b = browser();
    await b.get("/users/sign_in");
    const forged = await b.post("/users/sign_in", form({ token: user.token, authenticity_token: "x".repeat(32) }), FORM);
    expect(forged.headers.get("location")).toMatch(/error=Your%20sign-in%20form%20expired/);
    expect(b.jar.has("_forgeline_session")).toBe(false);
    expect((await signIn(b, "glpat-wrong-wrong-wrong-00")).headers.get("location")).toMatch(/error=Invalid%20token/);
    const narrow = await newUser({ scopes: ["read_user"] });
    expect((await signIn(b, narrow.token)).headers.get("location")).toMatch(/api%20or%20read_api/);
    expect((await signIn(b, user.token, "//evil.example/")).headers.get("location")).toBe("/");
  });

  it("reads return_to as a browser reads the Location it becomes: never off the site, always a header-safe URL", async () => {
    const user = await newUser();
    // A browser drops tabs and newlines from a URL: these two would lead to evil.example.
    for (const offSite of ["/\t/evil.example/", "/\n/evil.example/", "/\\evil.example/"]) {
      const res = await signIn(browser(), user.token, offSite);
      expect({ offSite, status: res.status, location: res.headers.get("location") }).toEqual({ offSite, status: 303, location: "/" });
    }
    const res = await signIn(browser(), user.token, "/projects\u0007 🎉\u200f?q=a b#top");
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/projects%07%20%F0%9F%8E%89%E2%80%8F?q=a%20b#top");
  });

  it("signs out with the form's CSRF token and ends the session", async () => {
    const user = await newUser();
    const b = browser();
    await signIn(b, user.token);
    const csrf = /<meta name="csrf-token" content="([^"]+)">/.exec(await (await b.get("/")).text())![1]!;
    const session = b.jar.get("_forgeline_session")!;
    const forged = await b.post("/users/sign_out", form({ authenticity_token: "nope" }), FORM);
    expect(forged.status).toBe(403);
    const out = await b.post("/users/sign_out", form({ authenticity_token: csrf }), FORM);
    expect(out.status).toBe(303);
    const reuse = await fetch(baseUrl() + "/api/v4/user", { headers: { cookie: `_forgeline_session=${session}` } });
    expect(reuse.status).toBe(401);
  });
});
