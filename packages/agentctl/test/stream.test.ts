// The agent stream as a channel: agentctl's stdin/stdout, one envelope per line, every frame
// tagged with its session; errors, bounds, several sessions on one process.
import { test, describe, after } from "node:test";
import assert from "node:assert/strict";
import { PassThrough } from "node:stream";
import { AGENT_ACTION_NAMES, type Envelope } from "@kandev/protocol";
import { startAgentctl } from "../src/agentctl.js";
import { killAll, processGone, startAgentctlProcess, startSession, turnText } from "./agentctl-process.js";
import { StreamLine, type StreamError } from "./stream-client.js";
import { floodChunk } from "@kandev/mock-agent";

after(killAll);

describe("agent stream over agentctl's stdio", () => {
  test("unknown action -> UNKNOWN_ACTION", async () => {
    const ctl = await startAgentctlProcess();
    const out = await ctl.connect().request("agent.teleport", {});
    assert.equal(out.type, "error");
    assert.equal((out.payload as { code: string }).code, "UNKNOWN_ACTION");
  });

  test("bad params -> VALIDATION_ERROR with the failing field", async () => {
    const ctl = await startAgentctlProcess();
    await assert.rejects(ctl.connect().call("agent.configure", { agent: { command: [] }, features: {} }), (e: StreamError) => {
      assert.equal(e.code, "VALIDATION_ERROR");
      const paths = (e.details as { path: string }[]).map((d) => d.path);
      assert.ok(paths.includes("agent.command") && paths.includes("features.acpElicitation"), paths.join(","));
      return true;
    });
  });

  test("a malformed line gets a BAD_REQUEST error frame (under the id and session it named) and the channel keeps working", async () => {
    const ctl = await startAgentctlProcess();
    const c = ctl.connect();
    ctl.line.sendRaw("{this is not json");
    const untagged = await waitForLine(ctl.line, (f) => f.type === "error" && f.session === undefined);
    assert.equal((untagged.payload as { code: string }).code, "BAD_REQUEST");
    c.sendRaw(JSON.stringify({ id: "x1", session: "s1", type: "bogus", action: "agent.status" }));
    const err2 = await c.waitFor((f) => f.type === "error" && f.id === "x1", 15_000, "error for x1");
    assert.equal((err2.payload as { code: string }).code, "BAD_REQUEST");
    c.sendRaw(JSON.stringify({ id: "x2", type: "request", action: "agent.status", payload: {} }));
    const err3 = await waitForLine(ctl.line, (f) => f.id === "x2");
    assert.match((err3.payload as { message: string }).message, /needs a session/);
    await assert.rejects(c.call("agent.status"), (e: StreamError) => e.code === "NOT_FOUND", "no session s1 yet");
  });

  // That the dropped line's bytes are counted, never kept, is LineFramer's (acp-stdio lines.test.ts).
  test("an oversized line is dropped alone with a BAD_REQUEST error; the next line is served", async () => {
    const ctl = await startAgentctlProcess();
    ctl.line.sendRaw(`{"id":"big","session":"s1","type":"request","action":"agent.status","payload":"${"x".repeat(9 * 1024 * 1024)}"}`);
    const err = await waitForLine(ctl.line, (f) => f.type === "error" && /over the limit/.test((f.payload as { message: string }).message));
    assert.equal((err.payload as { code: string }).code, "BAD_REQUEST");
    const out = await ctl.connect().request("agent.teleport", {});
    assert.equal((out.payload as { code: string }).code, "UNKNOWN_ACTION");
  });

  test("every action is served (none answers UNKNOWN_ACTION)", async () => {
    const { client } = await startSession();
    for (const action of AGENT_ACTION_NAMES.filter((a) => a !== "agent.session.close")) {
      const out = await client.request(action, {});
      assert.notEqual((out.payload as { code?: string }).code, "UNKNOWN_ACTION", action);
    }
    assert.deepEqual(await client.call("agent.session.close"), { ok: true });
  });

  test("configure opens a session; other actions on an unknown one are NOT_FOUND; a second configure is CONFLICT; a failed one leaves nothing", async () => {
    const ctl = await startAgentctlProcess();
    const c = ctl.connect();
    await assert.rejects(c.call("agent.initialize", {}), (e: StreamError) => e.code === "NOT_FOUND");
    await assert.rejects(
      c.call("agent.configure", { agent: { command: ["/definitely/not/an/agent"] }, features: { acpElicitation: false } }),
      (e: StreamError) => e.code === "BAD_REQUEST" && /cannot start agent command/.test(e.message),
    );
    await assert.rejects(c.call("agent.status"), (e: StreamError) => e.code === "NOT_FOUND", "the failed configure left no session");
    const { client } = await startSession({}, {}, { ctl, session: "s1" });
    await assert.rejects(
      client.call("agent.configure", { agent: { command: ["x"] }, features: { acpElicitation: false } }),
      (e: StreamError) => e.code === "CONFLICT",
    );
    assert.deepEqual(await ctl.connect("never-opened").call("agent.session.close"), { ok: true }, "closing what is gone is done");
  });

  test("configure timeouts with answer >= idle -> VALIDATION_ERROR, nothing spawned", async () => {
    const ctl = await startAgentctlProcess();
    const c = ctl.connect();
    await assert.rejects(
      c.call("agent.configure", {
        agent: { command: [process.execPath, "-e", "0"] },
        features: { acpElicitation: false },
        timeouts: { elicitation_answer_ms: 60_000, acp_idle_ms: 60_000 },
      }),
      (e: StreamError) => e.code === "VALIDATION_ERROR" && /strictly below/.test(e.message),
    );
  });

  test("two sessions on one agentctl run turns at once; each frame carries its own session", async () => {
    const a = await startSession();
    const b = await startSession({}, {}, { ctl: a.ctl, session: "s2" });
    const [sa, sb] = [await a.client.call<{ agent_pid: number }>("agent.status"), await b.client.call<{ agent_pid: number }>("agent.status")];
    assert.notEqual(sa.agent_pid, sb.agent_pid, "one agent per session");
    await Promise.all([
      a.client.call("agent.prompt", { session_id: a.sessionId, text: "/e2e:echo alpha", turn_id: "t1" }),
      b.client.call("agent.prompt", { session_id: b.sessionId, text: "/e2e:echo beta", turn_id: "t1" }),
    ]);
    await Promise.all([a.client.waitForEvent("turn.ended", { turn_id: "t1" }), b.client.waitForEvent("turn.ended", { turn_id: "t1" })]);
    assert.equal(turnText(a.client, "t1"), "alpha");
    assert.equal(turnText(b.client, "t1"), "beta");
    assert.ok(
      a.ctl.line.frames.every((f) => f.session !== undefined),
      "every frame is tagged",
    );
  });

  test("a burst of 2,000 streamed chunks leaves agentctl joined: fewer events, the exact text, all before the turn's end", async () => {
    const { client, sessionId } = await startSession();
    await client.call("agent.prompt", { session_id: sessionId, text: "/e2e:flood 2000 10", turn_id: "t1" });
    await client.waitForEvent("turn.ended", { turn_id: "t1" });
    const expected = Array.from({ length: 2000 }, (_, i) => floodChunk(i, 10)).join("");
    assert.equal(turnText(client, "t1"), expected);
    const updates = client.eventsOf("session.update").filter((e) => (e.payload as { turn_id: string }).turn_id === "t1");
    // How many chunks one pipe read holds depends on the scheduler (7 a read in a loaded run, far
    // more on a quiet one); unjoined it is exactly one event per chunk. The rule itself, exactly:
    // chunk-joiner.test.ts.
    assert.ok(updates.length < 2000, `${updates.length} session.update events for 2,000 chunks`);
    const names = client.events.map((e) => e.action);
    assert.ok(names.lastIndexOf("session.update") < names.indexOf("turn.ended"), "the turn ends after its last text");
  });

  test("one agent crashing leaves the other session running: its exit is tagged with its session only", async () => {
    const a = await startSession();
    const b = await startSession({}, {}, { ctl: a.ctl, session: "s2" });
    const { agent_pid } = await a.client.call<{ agent_pid: number }>("agent.status");
    await a.client.call("agent.prompt", { session_id: a.sessionId, text: "/e2e:slow", turn_id: "t1" });
    await a.client.waitForEvent("session.update", { turn_id: "t1" });
    process.kill(agent_pid, "SIGKILL");
    await a.client.waitForEvent("turn.ended", { turn_id: "t1", stop_reason: "error" });
    await a.client.waitForEvent("agent.exited");
    assert.equal(b.client.eventsOf("agent.exited").length + b.client.eventsOf("turn.ended").length, 0);
    await b.client.call("agent.prompt", { session_id: b.sessionId, text: "/e2e:echo still here", turn_id: "t2" });
    await b.client.waitForEvent("turn.ended", { turn_id: "t2", stop_reason: "end_turn" });
    assert.equal(turnText(b.client, "t2"), "still here");
  });

  test("stdin EOF: agentctl stops every session's agent, then exits 0", async () => {
    const a = await startSession();
    const b = await startSession({}, {}, { ctl: a.ctl, session: "s2" });
    const pids = [
      (await a.client.call<{ agent_pid: number }>("agent.status")).agent_pid,
      (await b.client.call<{ agent_pid: number }>("agent.status")).agent_pid,
    ];
    await a.client.call("agent.prompt", { session_id: a.sessionId, text: "/e2e:slow", turn_id: "t1" });
    a.ctl.line.end();
    assert.equal((await a.ctl.exited).code, 0);
    for (const pid of pids) assert.ok(processGone(pid), `agent ${pid} was stopped before agentctl exited`);
  });
});

describe("startAgentctl over in-process streams", () => {
  test("serves the same channel over any pair of streams, and says when its input ended", async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    const handle = startAgentctl({ input, output, log: () => {} });
    const line = new StreamLine(input, output);
    const out = await line.client("s1").request("agent.status", {});
    assert.equal((out.payload as { code: string }).code, "NOT_FOUND");
    input.end();
    assert.equal(await handle.ended, "stdin closed");
    await handle.close();
    assert.equal(handle.sessions, 0);
  });
});

function waitForLine(line: StreamLine, predicate: (f: Envelope) => boolean, timeoutMs = 15_000): Promise<Envelope> {
  const seen = line.frames.find(predicate);
  if (seen !== undefined) return Promise.resolve(seen);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => (off(), reject(new Error("no matching frame"))), timeoutMs);
    const off = line.onFrame((f) => {
      if (!predicate(f)) return;
      clearTimeout(timer);
      off();
      resolve(f);
    });
  });
}
