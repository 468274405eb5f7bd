// ask_user_question_kandev end to end over real processes: built agentctl -> built mock agent, which
// connects to agentctl's MCP tool server as a real MCP client; the test's stream client plays the
// backend and answers agentctl's `kandev.ask_user_question` requests.
import { test, describe, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import { ONE_QUESTION, THREE_QUESTIONS } from "@kandev/mock-agent";
import { killAll, processGone, startSession, turnText, type AgentctlProcess } from "./agentctl-process.js";

after(killAll);

const ASK = "kandev.ask_user_question";
const ANSWER = { answers: [{ question_id: "database", selected_options: ["postgres"] }] };

type Logged = { dir: string; frame: { method?: string; id?: unknown; params?: Record<string, unknown>; result?: unknown } };
function frameLog(file: string): Logged[] {
  return fs
    .readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.length > 0)
    .map((l) => JSON.parse(l) as Logged);
}
const sessionNewParams = (file: string) => frameLog(file).find((l) => l.dir === "in" && l.frame.method === "session/new")?.frame.params;
const promptsIn = (file: string) => frameLog(file).filter((l) => l.dir === "in" && l.frame.method === "session/prompt");

/** Resolves once agentctl's stderr matches `pattern` (bounded). */
function stderrMatches(ctl: AgentctlProcess, pattern: RegExp, timeoutMs = 30_000): Promise<void> {
  if (pattern.test(ctl.stderr())) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => (ctl.child.stderr.off("data", check), reject(new Error(`agentctl stderr never matched ${pattern}: ${ctl.stderr()}`))),
      timeoutMs,
    );
    const check = () => {
      if (!pattern.test(ctl.stderr())) return;
      clearTimeout(timer);
      ctl.child.stderr.off("data", check);
      resolve();
    };
    ctl.child.stderr.on("data", check);
  });
}

describe("ask_user_question_kandev relay", () => {
  test("session/new hands the agent the kandev http MCP server (kandev_tool absent = enabled)", async () => {
    const { logFile, initResult } = await startSession();
    assert.deepEqual((initResult.agent_capabilities as { mcpCapabilities?: unknown }).mcpCapabilities, { http: true, sse: false });
    const servers = sessionNewParams(logFile)?.mcpServers as Array<Record<string, unknown>>;
    assert.equal(servers.length, 1);
    assert.equal(servers[0]?.type, "http");
    assert.equal(servers[0]?.name, "kandev");
    assert.deepEqual(servers[0]?.headers, []);
    assert.match(String(servers[0]?.url), /^http:\/\/127\.0\.0\.1:\d+\/mcp\/[0-9a-f]{32}$/);
  });

  test("kandev_tool {enabled:false}: no MCP server in session/new, the agent reports it has none", async () => {
    const { client, sessionId, logFile } = await startSession({ kandev_tool: { enabled: false } });
    assert.deepEqual(sessionNewParams(logFile)?.mcpServers, []);
    await client.call("agent.prompt", { session_id: sessionId, text: "/e2e:kandev-question", turn_id: "t1" });
    await client.waitForEvent("turn.ended", { turn_id: "t1", stop_reason: "end_turn" });
    assert.equal(turnText(client, "t1"), 'kandev tool error: no "kandev" http MCP server in session/new');
    assert.equal(client.requestsOf(ASK).length, 0);
  });

  test("the backend's answer text reaches the agent as the tool result, within one session/prompt", async () => {
    const { client, sessionId, logFile } = await startSession();
    await client.call("agent.prompt", { session_id: sessionId, text: "/e2e:kandev-question", turn_id: "t1" });
    const req = await client.waitForRequest(ASK);
    assert.match(req.id ?? "", /^agentctl-\d+$/);
    assert.deepEqual(req.payload, { session_id: sessionId, questions: ONE_QUESTION.questions });
    const status = await client.call<{ pending_kandev_questions: number; turn_active: boolean }>("agent.status");
    assert.equal(status.pending_kandev_questions, 1);
    assert.equal(status.turn_active, true);
    client.reply(req, { text: "The operator chose Postgres.", answer: ANSWER });
    await client.waitForEvent("turn.ended", { turn_id: "t1", stop_reason: "end_turn" });
    assert.equal(turnText(client, "t1"), "kandev tool result: The operator chose Postgres.");
    const tools = client.eventsOf("session.update").map((e) => (e.payload as { update: { kind: string; title?: string; status?: string } }).update);
    assert.deepEqual(
      tools.filter((u) => u.kind !== "agent_message_chunk").map((u) => [u.kind, u.status]),
      [
        ["tool_call", "in_progress"],
        ["tool_call_update", "completed"],
      ],
    );
    assert.equal(promptsIn(logFile).length, 1, "exactly one session/prompt for the whole exchange");
    const said = frameLog(logFile).filter(
      (l) =>
        l.dir === "out" &&
        l.frame.method === "session/update" &&
        JSON.stringify(l.frame.params).includes("kandev tool result: The operator chose Postgres."),
    );
    assert.equal(said.length, 1, "the agent itself sent the answer text (MOCK_AGENT_LOG)");
    assert.equal((await client.call<{ pending_kandev_questions: number }>("agent.status")).pending_kandev_questions, 0);
  });

  test("kandev-question-multi relays the 3-question bundle in one request", async () => {
    const { client, sessionId } = await startSession();
    await client.call("agent.prompt", { session_id: sessionId, text: "/e2e:kandev-question-multi", turn_id: "t1" });
    const req = await client.waitForRequest(ASK);
    assert.deepEqual((req.payload as { questions: unknown }).questions, THREE_QUESTIONS.questions);
    client.reply(req, { text: "database: Postgres; auth: SSO; deploy: Fly.io", answer: { answers: [] } });
    await client.waitForEvent("turn.ended", { turn_id: "t1", stop_reason: "end_turn" });
    assert.equal(turnText(client, "t1"), "kandev tool result: database: Postgres; auth: SSO; deploy: Fly.io");
    assert.equal(client.requestsOf(ASK).length, 1);
  });

  test("a backend error becomes a tool error the agent reads; the turn still ends normally", async () => {
    const { client, sessionId, logFile } = await startSession();
    await client.call("agent.prompt", { session_id: sessionId, text: "/e2e:kandev-question", turn_id: "t1" });
    const req = await client.waitForRequest(ASK);
    client.replyError(req, "VALIDATION_ERROR", "each question needs 2-6 options");
    await client.waitForEvent("turn.ended", { turn_id: "t1", stop_reason: "end_turn" });
    assert.equal(turnText(client, "t1"), "kandev tool error: The question could not be asked: each question needs 2-6 options (VALIDATION_ERROR)");
    assert.equal(promptsIn(logFile).length, 1);
  });

  test("an answer that breaks the result contract is a tool error, not garbage for the agent", async () => {
    const { client, sessionId } = await startSession();
    await client.call("agent.prompt", { session_id: sessionId, text: "/e2e:kandev-question", turn_id: "t1" });
    client.reply(await client.waitForRequest(ASK), ANSWER); // the pre-text shape: no `text`
    await client.waitForEvent("turn.ended", { turn_id: "t1", stop_reason: "end_turn" });
    assert.match(turnText(client, "t1"), /^kandev tool error: .*invalid result \(INTERNAL_ERROR\)$/);
  });

  test("the backend goes away (agentctl's stdin ends) during a tool call: the call fails NOT_CONNECTED, the agent is stopped, agentctl exits", async () => {
    const { ctl, client, sessionId } = await startSession();
    await client.call("agent.prompt", { session_id: sessionId, text: "/e2e:kandev-question", turn_id: "t1" });
    await client.waitForRequest(ASK);
    const { agent_pid } = await client.call<{ agent_pid: number }>("agent.status");
    ctl.line.end();
    await stderrMatches(ctl, /ask_user_question_kandev got no answer: .*connection was lost \(stdin closed\) \(NOT_CONNECTED\)/);
    assert.equal((await ctl.exited).code, 0);
    assert.ok(processGone(agent_pid), "agentctl stopped its agent before exiting");
  });

  test("closing the session during a tool call abandons the request; the other session on the same agentctl is untouched", async () => {
    const a = await startSession();
    const b = await startSession({}, {}, { ctl: a.ctl, session: "s2" });
    await a.client.call("agent.prompt", { session_id: a.sessionId, text: "/e2e:kandev-question", turn_id: "t1" });
    await a.client.waitForRequest(ASK);
    await a.client.close();
    await b.client.call("agent.prompt", { session_id: b.sessionId, text: "/e2e:kandev-question", turn_id: "t2" });
    const req = await b.client.waitForRequest(ASK);
    assert.equal(req.session, "s2", "agentctl's request is tagged with its session");
    b.client.reply(req, { text: "kandev tool result: Blue", answer: ANSWER });
    await b.client.waitForEvent("turn.ended", { turn_id: "t2", stop_reason: "end_turn" });
    assert.match(turnText(b.client, "t2"), /Blue/);
  });

  test("agent.cancel during a pending tool call: turn ends cancelled, the request is abandoned, a late answer is dropped", async () => {
    const { ctl, client, sessionId, logFile } = await startSession();
    await client.call("agent.prompt", { session_id: sessionId, text: "/e2e:kandev-question", turn_id: "t1" });
    const req = await client.waitForRequest(ASK);
    assert.deepEqual(await client.call("agent.cancel", { session_id: sessionId }), { ok: true });
    await client.waitForEvent("turn.ended", { turn_id: "t1", stop_reason: "cancelled" });
    assert.equal((await client.call<{ pending_kandev_questions: number }>("agent.status")).pending_kandev_questions, 0);
    assert.doesNotMatch(turnText(client, "t1"), /kandev tool result/);
    const framesBefore = client.frames.length;
    client.reply(req, { text: "too late", answer: ANSWER });
    await stderrMatches(ctl, new RegExp(`dropped a response for ${ASK} that answers no pending request \\(id ${req.id}\\)`));
    assert.equal(client.frames.slice(framesBefore).filter((f) => f.type === "error").length, 0, "no error frame for a late answer");
    assert.equal(frameLog(logFile).filter((l) => l.dir === "in" && l.frame.method === "session/cancel").length, 1);
    // The session is usable again.
    await client.call("agent.prompt", { session_id: sessionId, text: "/e2e:plain", turn_id: "t2" });
    await client.waitForEvent("turn.ended", { turn_id: "t2", stop_reason: "end_turn" });
    assert.equal(promptsIn(logFile).length, 2);
  });

  test("SIGTERM while a question waits on the backend: agentctl exits 0 quickly, the tool server is gone", async () => {
    const { ctl, client, sessionId, logFile } = await startSession();
    const url = String((sessionNewParams(logFile)?.mcpServers as Array<{ url: string }> | undefined)?.[0]?.url);
    await client.call("agent.prompt", { session_id: sessionId, text: "/e2e:kandev-question", turn_id: "t1" });
    await client.waitForRequest(ASK);
    const t0 = Date.now();
    ctl.child.kill("SIGTERM");
    assert.equal((await ctl.exited).code, 0);
    assert.ok(Date.now() - t0 < 4000, `took ${Date.now() - t0} ms`);
    await assert.rejects(fetch(url, { method: "POST", body: "{}" }), "the tool server no longer listens");
  });

  test("invalid tool input (one option) is refused by the MCP server and never relayed", async () => {
    const { client, sessionId } = await startSession();
    const args = { questions: [{ prompt: "Only one choice?", options: [{ label: "a" }] }] };
    await client.call("agent.prompt", { session_id: sessionId, text: `/e2e:kandev-question ${JSON.stringify(args)}`, turn_id: "t1" });
    await client.waitForEvent("turn.ended", { turn_id: "t1", stop_reason: "end_turn" });
    const text = turnText(client, "t1");
    assert.match(text, /^kandev tool error: /);
    assert.match(text, /2-6 options/);
    assert.equal(client.requestsOf(ASK).length, 0);
  });
});
