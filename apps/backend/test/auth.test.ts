// Sign-in, roles and tokens against a real server (issue 34 items 1 and 2): every route with and
// without credentials and with each role, /ws, setup, login and its limit, logout, password
// changes, tokens, session expiry, and the board without sign-in.
import assert from "node:assert/strict";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import Database from "better-sqlite3";
import WebSocket from "ws";
import type { ApiToken, CreatedToken, Me, SignedIn, Task, User } from "@kandev/protocol";
import { ROUTE_ACCESS } from "../src/auth/roles.js";
import { git, isolateGlobalGitConfig, makeRepo } from "./git-fixtures.js";
import { api, eventually, startTestServer, tempDir } from "./helpers.js";

isolateGlobalGitConfig();
type Server = Awaited<ReturnType<typeof startTestServer>>;
interface ErrorBody {
  error: { code: string; message: string; details?: unknown };
}
const ADMIN_PASSWORD = "admin-password-1";
const OP_PASSWORD = "operator-password-1";

/** The value of a `Set-Cookie: kandev_session=...` header, as a `Cookie` header. */
function cookieOf(headers: Headers): string {
  const set = headers.get("set-cookie") ?? "";
  const m = /kandev_session=([^;]*)/.exec(set);
  assert.ok(m !== null && m[1]!.length > 0, `a session cookie: ${set}`);
  return `kandev_session=${m[1]}`;
}
const withCookie = (cookie: string) => ({ cookie });
const withBearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** Upgrades /ws; resolves the HTTP status of a refusal, or 101 once open. */
function wsStatus(base: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`${base.replace(/^http/, "ws")}/ws`, { headers });
    socket.once("open", () => {
      socket.terminate();
      resolve(101);
    });
    socket.once("unexpected-response", (_req, res) => resolve(res.statusCode ?? 0));
    socket.once("error", reject);
  });
}

/** A concrete path for a route pattern (ids that exist nowhere: the auth check comes first). */
const concrete = (pattern: string) => pattern.replace(/:[A-Za-z]+/g, "no-such-id");

describe("auth on", () => {
  let server: Server;
  let base: string;
  let clock = Date.now();
  let adminCookie: string;
  let operator: User;
  let opCookie: string;
  before(async () => {
    server = await startTestServer({ auth: true, authClock: () => clock, worktreesDir: path.join(tempDir(), "worktrees") });
    base = server.url;
  });
  after(async () => {
    await server?.close();
  });

  test("before setup: health says setup is required; every other route is 401 and /ws refuses the upgrade", async () => {
    const health = await api<{ auth: unknown }>(base, "GET", "/api/v1/health");
    assert.equal(health.status, 200);
    assert.deepEqual(health.body.auth, { enabled: true, setup_required: true });
    for (const [route, access] of Object.entries(ROUTE_ACCESS)) {
      if (access === "public") continue;
      const [method, pattern] = route.split(" ") as [string, string];
      const res = await api<ErrorBody>(base, method, concrete(pattern), method === "GET" || method === "DELETE" ? undefined : {});
      assert.equal(res.status, 401, `${route} without credentials`);
      assert.equal(res.body.error.code, "UNAUTHORIZED", route);
    }
    const me = await api<ErrorBody>(base, "GET", "/api/v1/auth/me", undefined, withCookie("kandev_session=forged"));
    assert.equal(me.status, 401, "a made-up cookie opens nothing");
    assert.equal(await wsStatus(base), 401);
  });

  test("setup: a short password is 400; the first admin is 201 with an HttpOnly SameSite=Strict cookie; a second setup is 409", async () => {
    const short = await api<ErrorBody>(base, "POST", "/api/v1/auth/setup", { username: "alice", password: "short" });
    assert.equal(short.status, 400);
    assert.equal(short.body.error.code, "VALIDATION_ERROR");
    assert.match(JSON.stringify(short.body.error.details), /at least 10 characters/);
    const res = await api<SignedIn>(base, "POST", "/api/v1/auth/setup", { username: "alice", password: ADMIN_PASSWORD });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.equal(res.body.user.username, "alice");
    assert.equal(res.body.user.role, "admin");
    const set = res.headers.get("set-cookie") ?? "";
    assert.match(set, /HttpOnly/);
    assert.match(set, /SameSite=Strict/);
    assert.match(set, /Path=\//);
    assert.doesNotMatch(set, /Secure/, "plain http on loopback: a Secure cookie would never come back");
    adminCookie = cookieOf(res.headers);
    const again = await api<ErrorBody>(base, "POST", "/api/v1/auth/setup", { username: "mallory", password: "mallory-password" });
    assert.equal(again.status, 409);
    assert.equal(again.body.error.code, "CONFLICT");
    assert.deepEqual((await api<{ auth: unknown }>(base, "GET", "/api/v1/health")).body.auth, { enabled: true, setup_required: false });
    const me = await api<Me>(base, "GET", "/api/v1/auth/me", undefined, withCookie(adminCookie));
    assert.deepEqual(me.body, { id: res.body.user.id, username: "alice", role: "admin" });
    assert.equal(await wsStatus(base, withCookie(adminCookie)), 101, "/ws opens with the cookie");
  });

  test("a login behind a loopback TLS proxy gets a Secure cookie", async () => {
    const res = await api<SignedIn>(
      base,
      "POST",
      "/api/v1/auth/login",
      { username: "alice", password: ADMIN_PASSWORD },
      { "x-forwarded-proto": "https" },
    );
    assert.equal(res.status, 200);
    assert.match(res.headers.get("set-cookie") ?? "", /; Secure/);
  });

  test("admins make users; an operator gets 403 on every admin route and reaches the operator ones", async () => {
    const res = await api<User>(base, "POST", "/api/v1/users", { username: "bob", password: OP_PASSWORD, role: "operator" }, withCookie(adminCookie));
    assert.equal(res.status, 201, JSON.stringify(res.body));
    operator = res.body;
    assert.deepEqual(Object.keys(operator).sort(), ["created_at", "id", "role", "username"]);
    const dup = await api<ErrorBody>(
      base,
      "POST",
      "/api/v1/users",
      { username: "bob", password: OP_PASSWORD, role: "admin" },
      withCookie(adminCookie),
    );
    assert.equal(dup.status, 409);
    const login = await api<SignedIn>(base, "POST", "/api/v1/auth/login", { username: "bob", password: OP_PASSWORD });
    assert.equal(login.status, 200);
    assert.equal(login.body.user.role, "operator");
    opCookie = cookieOf(login.headers);
    for (const [route, access] of Object.entries(ROUTE_ACCESS)) {
      const [method, pattern] = route.split(" ") as [string, string];
      if (access === "public" || route === "POST /api/v1/auth/logout" || route === "POST /api/v1/auth/password") continue;
      const res = await api<ErrorBody>(
        base,
        method,
        concrete(pattern),
        method === "GET" || method === "DELETE" ? undefined : {},
        withCookie(opCookie),
      );
      if (access === "admin") {
        assert.equal(res.status, 403, `${route} as an operator`);
        assert.equal(res.body.error.code, "FORBIDDEN");
      } else assert.ok(res.status !== 401 && res.status !== 403, `${route} as an operator: ${res.status}`);
    }
    const listed = await api<User[]>(base, "GET", "/api/v1/users", undefined, withCookie(adminCookie));
    assert.deepEqual(listed.body.map((u) => u.username).sort(), ["alice", "bob"]);
    const tasks = await api<Task[]>(base, "GET", "/api/v1/tasks", undefined, withCookie(opCookie));
    assert.equal(tasks.status, 200);
  });

  test("login: wrong name and wrong password are the same 401; five failures are 429 with Retry-After, also for the right password", async () => {
    const wrongName = await api<ErrorBody>(
      base,
      "POST",
      "/api/v1/auth/login",
      { username: "nobody", password: "whatever-pass" },
      { "x-forwarded-for": "203.0.113.9" },
    );
    const wrongPass = await api<ErrorBody>(
      base,
      "POST",
      "/api/v1/auth/login",
      { username: "alice", password: "whatever-pass" },
      { "x-forwarded-for": "203.0.113.9" },
    );
    assert.equal(wrongName.status, 401);
    assert.equal(wrongPass.status, 401);
    assert.equal(wrongName.body.error.message, wrongPass.body.error.message);
    // A user whose name is attacked: 5 failures from several addresses.
    await api(base, "POST", "/api/v1/users", { username: "carol", password: OP_PASSWORD, role: "operator" }, withCookie(adminCookie));
    for (let i = 0; i < 5; i++) {
      const r = await api(
        base,
        "POST",
        "/api/v1/auth/login",
        { username: "carol", password: `guess-${i}` },
        { "x-forwarded-for": `198.51.100.${i}` },
      );
      assert.equal(r.status, 401);
    }
    const limited = await api<ErrorBody>(
      base,
      "POST",
      "/api/v1/auth/login",
      { username: "carol", password: OP_PASSWORD },
      { "x-forwarded-for": "198.51.100.77" },
    );
    assert.equal(limited.status, 429);
    assert.equal(limited.body.error.code, "RATE_LIMITED");
    assert.ok(Number(limited.headers.get("retry-after")) > 0);
    // The window moves on with the clock: the right password works again.
    clock += 15 * 60_000 + 1000;
    const ok = await api<SignedIn>(
      base,
      "POST",
      "/api/v1/auth/login",
      { username: "carol", password: OP_PASSWORD },
      { "x-forwarded-for": "198.51.100.77" },
    );
    assert.equal(ok.status, 200);
  });

  test("tokens: shown once, kept as a hash, act as their owner with the owner's role, listed and revoked", async () => {
    const made = await api<CreatedToken>(base, "POST", "/api/v1/tokens", { name: "ci" }, withCookie(opCookie));
    assert.equal(made.status, 201, JSON.stringify(made.body));
    assert.match(made.body.token, /^kdv_[A-Za-z0-9_-]{43}$/);
    const me = await api<Me>(base, "GET", "/api/v1/auth/me", undefined, withBearer(made.body.token));
    assert.deepEqual(me.body, { id: operator.id, username: "bob", role: "operator" });
    const admin = await api<ErrorBody>(base, "GET", "/api/v1/users", undefined, withBearer(made.body.token));
    assert.equal(admin.status, 403, "an operator's token is an operator");
    assert.equal(await wsStatus(base, withBearer(made.body.token)), 101);
    const wrong = await api<ErrorBody>(base, "GET", "/api/v1/tasks", undefined, { ...withBearer("kdv_not-a-token"), ...withCookie(opCookie) });
    assert.equal(wrong.status, 401, "a wrong bearer token is refused even beside a good cookie");

    const own = await api<ApiToken[]>(base, "GET", "/api/v1/tokens", undefined, withCookie(opCookie));
    assert.equal(own.body.length, 1);
    assert.equal(own.body[0]!.name, "ci");
    assert.notEqual(own.body[0]!.last_used_at, null);
    assert.doesNotMatch(JSON.stringify(own.body), /kdv_/);
    const adminToken = await api<CreatedToken>(base, "POST", "/api/v1/tokens", { name: "admin's" }, withCookie(adminCookie));
    const all = await api<ApiToken[]>(base, "GET", "/api/v1/tokens", undefined, withCookie(adminCookie));
    assert.deepEqual(all.body.map((t) => [t.name, t.username]).sort(), [
      ["admin's", "alice"],
      ["ci", "bob"],
    ]);
    const notYours = await api(base, "DELETE", `/api/v1/tokens/${adminToken.body.id}`, undefined, withCookie(opCookie));
    assert.equal(notYours.status, 404);

    const db = new Database(server.dbPath, { readonly: true });
    const stored = JSON.stringify(db.prepare("select * from api_tokens").all()) + JSON.stringify(db.prepare("select * from auth_sessions").all());
    db.close();
    assert.ok(!stored.includes(made.body.token), "the database holds no token");
    assert.ok(!stored.includes(adminCookie.split("=")[1]!), "nor a session id");

    assert.equal((await api(base, "DELETE", `/api/v1/tokens/${made.body.id}`, undefined, withCookie(opCookie))).status, 204);
    assert.equal((await api(base, "GET", "/api/v1/auth/me", undefined, withBearer(made.body.token))).status, 401);
    assert.equal((await api(base, "DELETE", `/api/v1/tokens/${adminToken.body.id}`, undefined, withCookie(adminCookie))).status, 204);
  });

  test("password change: the current one is checked, other sessions end, this one stays; an admin's reset ends the user's sessions", async () => {
    const second = cookieOf((await api(base, "POST", "/api/v1/auth/login", { username: "bob", password: OP_PASSWORD })).headers);
    const wrong = await api<ErrorBody>(
      base,
      "POST",
      "/api/v1/auth/password",
      { current_password: "nope-nope-nope", new_password: "new-password-22" },
      withCookie(opCookie),
    );
    assert.equal(wrong.status, 401);
    const short = await api<ErrorBody>(
      base,
      "POST",
      "/api/v1/auth/password",
      { current_password: OP_PASSWORD, new_password: "short" },
      withCookie(opCookie),
    );
    assert.equal(short.status, 400);
    const ok = await api(
      base,
      "POST",
      "/api/v1/auth/password",
      { current_password: OP_PASSWORD, new_password: "new-password-22" },
      withCookie(opCookie),
    );
    assert.equal(ok.status, 204);
    assert.equal((await api(base, "GET", "/api/v1/auth/me", undefined, withCookie(opCookie))).status, 200, "this session stays");
    assert.equal((await api(base, "GET", "/api/v1/auth/me", undefined, withCookie(second))).status, 401, "the other one ended");
    assert.equal((await api(base, "POST", "/api/v1/auth/login", { username: "bob", password: "new-password-22" })).status, 200);

    const reset = await api(base, "POST", `/api/v1/users/${operator.id}/password`, { password: OP_PASSWORD }, withCookie(adminCookie));
    assert.equal(reset.status, 204);
    assert.equal((await api(base, "GET", "/api/v1/auth/me", undefined, withCookie(opCookie))).status, 401);
    opCookie = cookieOf((await api(base, "POST", "/api/v1/auth/login", { username: "bob", password: OP_PASSWORD })).headers);
  });

  test("users: an admin cannot delete themselves (409); deleting a user ends their sessions", async () => {
    const me = (await api<Me>(base, "GET", "/api/v1/auth/me", undefined, withCookie(adminCookie))).body;
    const self = await api<ErrorBody>(base, "DELETE", `/api/v1/users/${me.id}`, undefined, withCookie(adminCookie));
    assert.equal(self.status, 409);
    const dave = (
      await api<User>(base, "POST", "/api/v1/users", { username: "dave", password: OP_PASSWORD, role: "operator" }, withCookie(adminCookie))
    ).body;
    const daveCookie = cookieOf((await api(base, "POST", "/api/v1/auth/login", { username: "dave", password: OP_PASSWORD })).headers);
    assert.equal((await api(base, "DELETE", `/api/v1/users/${dave.id}`, undefined, withCookie(adminCookie))).status, 204);
    assert.equal((await api(base, "GET", "/api/v1/auth/me", undefined, withCookie(daveCookie))).status, 401);
    assert.equal((await api(base, "DELETE", `/api/v1/users/${dave.id}`, undefined, withCookie(adminCookie))).status, 404);
  });

  test("an operator's merge is attributed: merged_by on the result and the workspace, Merged-by trailer in the commit", async () => {
    const repo = makeRepo();
    const r = await api<{ id: string }>(base, "POST", "/api/v1/repositories", { path: repo }, withCookie(adminCookie));
    assert.equal(r.status, 201, JSON.stringify(r.body));
    const created = await api<{ task: Task }>(
      base,
      "POST",
      "/api/v1/tasks",
      { title: "edit", prompt: "/e2e:edit-file a.txt hello", repository_id: r.body.id },
      withCookie(opCookie),
    );
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const task = created.body.task;
    await eventually(async () => {
      const t = await api<Task>(base, "GET", `/api/v1/tasks/${task.id}`, undefined, withCookie(opCookie));
      return t.body.state === "REVIEW" ? t.body : undefined;
    }, "the task to reach REVIEW");
    const res = await api<{ commit: string; merged_by: string }>(
      base,
      "POST",
      `/api/v1/tasks/${task.id}/merge`,
      { strategy: "squash" },
      withCookie(opCookie),
    );
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.merged_by, "bob");
    assert.match(git(repo, "log", "-1", "--format=%B", res.body.commit), /\n\nMerged-by: bob\n?$/);
    assert.equal(git(repo, "log", "-1", "--format=%(trailers:key=Merged-by,valueonly)", res.body.commit).trim(), "bob");
    const after = await api<Task>(base, "GET", `/api/v1/tasks/${task.id}`, undefined, withCookie(opCookie));
    assert.equal(after.body.workspace?.merged_by, "bob");
  });

  test("logout ends the session server-side and clears the cookie, and closes its open /ws; sessions expire after 7 days", async () => {
    const socket = new WebSocket(`${base.replace(/^http/, "ws")}/ws`, { headers: withCookie(opCookie) });
    await new Promise<void>((resolve, reject) => {
      socket.once("open", () => resolve());
      socket.once("error", reject);
    });
    const closed = new Promise<number>((resolve) => socket.once("close", (code) => resolve(code)));
    const out = await api(base, "POST", "/api/v1/auth/logout", undefined, withCookie(opCookie));
    assert.equal(out.status, 204);
    assert.match(out.headers.get("set-cookie") ?? "", /kandev_session=;.*Max-Age=0/);
    assert.equal((await api(base, "GET", "/api/v1/auth/me", undefined, withCookie(opCookie))).status, 401);
    assert.equal(await wsStatus(base, withCookie(opCookie)), 401);
    assert.equal(await closed, 4401, "the socket the session opened is closed");
    assert.equal((await api(base, "GET", "/api/v1/auth/me", undefined, withCookie(adminCookie))).status, 200);
    clock += 7 * 24 * 3_600_000 + 1000;
    assert.equal((await api(base, "GET", "/api/v1/auth/me", undefined, withCookie(adminCookie))).status, 401, "expired");
  });
});

describe("auth off (loopback default)", () => {
  let server: Server;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server?.close();
  });

  test("everything answers without credentials as the local admin; no account can be made", async () => {
    const base = server.url;
    assert.deepEqual((await api<{ auth: unknown }>(base, "GET", "/api/v1/health")).body.auth, { enabled: false, setup_required: false });
    assert.deepEqual((await api<Me>(base, "GET", "/api/v1/auth/me")).body, { id: "local", username: "local", role: "admin" });
    assert.equal((await api(base, "GET", "/api/v1/agent-profiles")).status, 200);
    assert.equal((await api(base, "POST", "/api/v1/auth/setup", { username: "x", password: "long-enough-pw" })).status, 409);
    assert.equal((await api(base, "POST", "/api/v1/tokens", { name: "t" })).status, 409);
    assert.equal(await wsStatus(base), 101);
  });
});
