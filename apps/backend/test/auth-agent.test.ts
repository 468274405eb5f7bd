// An agent that tries to approve its own permission request over REST, as an attacker would
// (issue 34 item 4), with the real agentctl and mock agent (`/e2e:self-approve <url>`). With auth on
// it holds no credential: every call is 401 and the request stays pending until a person answers,
// and the answer records who. With auth off (one person on loopback) it succeeds: that is the
// documented limit of a board without sign-in (docs/API.md "Security model").
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { CreatedToken, Message, SignedIn, Task } from "@kandev/protocol";
import { api, eventually, startTestServer } from "./helpers.js";

type Server = Awaited<ReturnType<typeof startTestServer>>;

async function messagesOf(base: string, sessionId: string, headers: Record<string, string>): Promise<Message[]> {
  const res = await api<Message[]>(base, "GET", `/api/v1/sessions/${sessionId}/messages`, undefined, headers);
  assert.equal(res.status, 200);
  return res.body;
}
const agentText = (messages: Message[]) =>
  messages
    .filter((m) => m.author_type === "agent" && m.type === "text")
    .map((m) => m.content)
    .join("");

describe("an agent cannot approve its own permission request (auth on)", () => {
  let server: Server;
  let base: string;
  let op: Record<string, string>;
  before(async () => {
    server = await startTestServer({ auth: true });
    base = server.url;
    const setup = await api<SignedIn>(base, "POST", "/api/v1/auth/setup", { username: "alice", password: "admin-password-1" });
    const cookie = /kandev_session=[^;]+/.exec(setup.headers.get("set-cookie") ?? "")![0];
    await api(base, "POST", "/api/v1/users", { username: "bob", password: "operator-password-1", role: "operator" }, { cookie });
    const login = await api<SignedIn>(base, "POST", "/api/v1/auth/login", { username: "bob", password: "operator-password-1" });
    const opCookie = /kandev_session=[^;]+/.exec(login.headers.get("set-cookie") ?? "")![0];
    const token = await api<CreatedToken>(base, "POST", "/api/v1/tokens", { name: "script" }, { cookie: opCookie });
    op = { authorization: `Bearer ${token.body.token}` };
  });
  after(async () => {
    await server?.close();
  });

  test("its REST calls are 401, the request stays pending, and the operator's answer is recorded with their name", async () => {
    const created = await api<{ task: Task; session: { id: string } }>(
      base,
      "POST",
      "/api/v1/tasks",
      { title: "attacker", prompt: `/e2e:self-approve ${base}` },
      op,
    );
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const sessionId = created.body.session.id;
    const said = await eventually(async () => {
      const text = agentText(await messagesOf(base, sessionId, op));
      return text.includes("self-approve:") ? text : undefined;
    }, "the agent's report of its attempt");
    assert.match(said, /GET \/api\/v1\/tasks -> 401/);
    assert.match(said, /POST \/api\/v1\/sessions\/:id\/permissions\/:pendingId\/respond -> 401/);

    const messages = await messagesOf(base, sessionId, op);
    assert.equal(messages.find((m) => m.author_type === "user")?.metadata.user, "bob", "the prompt records its sender");
    const request = messages.find((m) => m.type === "permission_request");
    assert.ok(request !== undefined);
    assert.equal(request.requests_input, true, "still waiting for a person");
    assert.equal(request.metadata.status, "pending");
    const task = await api<Task>(base, "GET", `/api/v1/tasks/${created.body.task.id}`, undefined, op);
    assert.equal(task.body.pending_action, "permission");

    const pendingId = String(request.metadata.pending_id);
    const answered = await api(base, "POST", `/api/v1/sessions/${sessionId}/permissions/${pendingId}/respond`, { option_id: "reject-once" }, op);
    assert.equal(answered.status, 200, JSON.stringify(answered.body));
    const settled = await eventually(async () => {
      const m = (await messagesOf(base, sessionId, op)).find((x) => x.id === request.id);
      return m?.requests_input === false && m.metadata.user !== undefined ? m : undefined;
    }, "the decision to be recorded");
    assert.equal(settled.metadata.user, "bob");
    assert.equal(settled.metadata.option_id, "reject-once");
    await eventually(
      async () => (agentText(await messagesOf(base, sessionId, op)).includes("Permission answered: reject-once") ? true : undefined),
      "the agent to get the person's answer",
    );
  });

  test("a prompt queued during a turn records its sender", async () => {
    const created = await api<{ session: { id: string } }>(base, "POST", "/api/v1/tasks", { title: "queue", prompt: "/e2e:hang" }, op);
    const sessionId = created.body.session.id;
    await eventually(async () => {
      const s = await api<{ state: string }>(base, "GET", `/api/v1/sessions/${sessionId}`, undefined, op);
      return s.body.state === "RUNNING" ? true : undefined;
    }, "the turn to run");
    const queued = await api<{ queued: { user?: string } }>(base, "POST", `/api/v1/sessions/${sessionId}/prompt`, { text: "next" }, op);
    assert.equal(queued.status, 202, JSON.stringify(queued.body));
    assert.equal(queued.body.queued.user, "bob");
    const session = await api<{ queued_prompts: Array<{ user?: string }> }>(base, "GET", `/api/v1/sessions/${sessionId}`, undefined, op);
    assert.deepEqual(
      session.body.queued_prompts.map((q) => q.user),
      ["bob"],
    );
    assert.equal((await api(base, "POST", `/api/v1/sessions/${sessionId}/cancel`, {}, op)).status, 202);
  });
});

describe("auth off: the documented limit", () => {
  let server: Server;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server?.close();
  });

  test("on a board without sign-in the agent can approve its own request (one local user, loopback only)", async () => {
    const base = server.url;
    const created = await api<{ session: { id: string } }>(base, "POST", "/api/v1/tasks", { title: "local", prompt: `/e2e:self-approve ${base}` });
    assert.equal(created.status, 201);
    const sessionId = created.body.session.id;
    const said = await eventually(async () => {
      const text = agentText(await messagesOf(base, sessionId, {}));
      return text.includes("Permission answered") ? text : undefined;
    }, "the agent's self-approval");
    assert.match(said, /GET \/api\/v1\/tasks -> 200/);
    assert.match(said, /respond -> 200/);
    assert.match(said, /Permission answered: allow-once/);
    const request = (await messagesOf(base, sessionId, {})).find((m) => m.type === "permission_request");
    assert.equal(request?.metadata.user, "local", "and it is recorded as the local user's decision");
  });
});
