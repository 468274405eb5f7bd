import { test, describe, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import * as acp from "@agentclientprotocol/sdk";
import { parseFrameLog } from "../src/frame-log.js";
import { agentText, initAndSession, prompt, startMockAgent, waitUntil, type Harness } from "./acp-harness.js";

const started: Harness[] = [];
function start(env?: Record<string, string>): Harness {
  const h = startMockAgent(env);
  started.push(h);
  return h;
}
after(() => {
  for (const h of started) h.kill();
});

describe("mock agent over real pipes", () => {
  test("default prompt streams 'Mock agent received: <prompt>' in chunks", async () => {
    const h = start();
    const sid = await initAndSession(h);
    const res = await prompt(h, sid, "hello there");
    assert.equal(res.stopReason, "end_turn");
    const chunks = agentText(h.updates);
    assert.ok(chunks.length > 1, `expected several chunks, got ${chunks.length}`);
    assert.equal(chunks.join(""), "Mock agent received: hello there");
  });

  test("echo streams the rest back in several chunks", async () => {
    const h = start();
    const sid = await initAndSession(h);
    const res = await prompt(h, sid, "/e2e:echo hello world from the test");
    assert.equal(res.stopReason, "end_turn");
    const chunks = agentText(h.updates);
    assert.ok(chunks.length >= 3);
    assert.equal(chunks.join(""), "hello world from the test");
  });

  test("plain replies ok", async () => {
    const h = start();
    const sid = await initAndSession(h);
    assert.equal((await prompt(h, sid, "/e2e:plain")).stopReason, "end_turn");
    assert.deepEqual(agentText(h.updates), ["ok"]);
  });

  test("tool-call sends pending then completed, then text", async () => {
    const h = start();
    const sid = await initAndSession(h);
    assert.equal((await prompt(h, sid, "/e2e:tool-call")).stopReason, "end_turn");
    const kinds = h.updates.map((u) => u.update.sessionUpdate);
    assert.deepEqual(kinds, ["tool_call", "tool_call_update", "agent_message_chunk"]);
    const [call, upd] = h.updates.map((u) => u.update);
    assert.ok(call?.sessionUpdate === "tool_call" && call.status === "pending");
    assert.ok(upd?.sessionUpdate === "tool_call_update" && upd.status === "completed" && upd.toolCallId === call.toolCallId);
  });

  test("steps reports that many finished tool calls in order, then text", async () => {
    const h = start();
    const sid = await initAndSession(h);
    assert.equal((await prompt(h, sid, "/e2e:steps 3")).stopReason, "end_turn");
    const titles = h.updates.flatMap((u) => (u.update.sessionUpdate === "tool_call" ? [`${u.update.title} ${u.update.status}`] : []));
    assert.deepEqual(titles, ["Step 1 completed", "Step 2 completed", "Step 3 completed"]);
    assert.deepEqual(agentText(h.updates), ["Done with 3 steps."]);
  });

  test("permission reports the chosen option (allow and reject)", async () => {
    const h = start();
    const sid = await initAndSession(h);
    let seen: acp.RequestPermissionRequest | undefined;
    h.onPermission = async (req) => {
      seen = req;
      return { outcome: { outcome: "selected", optionId: "reject-once" } };
    };
    assert.equal((await prompt(h, sid, "/e2e:permission")).stopReason, "end_turn");
    assert.deepEqual(
      seen?.options.map((o) => o.kind),
      ["allow_once", "reject_once"],
    );
    assert.equal(agentText(h.updates).at(-1), "Permission denied: reject-once");
    h.onPermission = async () => ({ outcome: { outcome: "selected", optionId: "allow-once" } });
    await prompt(h, sid, "/e2e:permission");
    assert.equal(agentText(h.updates).at(-1), "Permission granted: allow-once");
  });

  test("permission handles a cancelled outcome", async () => {
    const h = start();
    const sid = await initAndSession(h);
    h.onPermission = async () => ({ outcome: { outcome: "cancelled" } });
    assert.equal((await prompt(h, sid, "/e2e:permission")).stopReason, "end_turn");
    assert.equal(agentText(h.updates).at(-1), "Permission request was cancelled.");
  });

  test("slow stops on session/cancel and answers cancelled", async () => {
    const h = start();
    const sid = await initAndSession(h);
    const t0 = Date.now();
    const pending = prompt(h, sid, "/e2e:slow");
    await waitUntil(() => agentText(h.updates).length >= 2, 15_000, "two ticks");
    await h.agent.notify(acp.methods.agent.session.cancel, { sessionId: sid });
    const res = await pending;
    assert.equal(res.stopReason, "cancelled");
    assert.ok(Date.now() - t0 < 4000, "cancel should end the turn well before 5 s");
  });

  test("hang stays silent until session/cancel", async () => {
    const h = start();
    const sid = await initAndSession(h);
    let settled = false;
    const pending = prompt(h, sid, "/e2e:hang").finally(() => (settled = true));
    // Nothing on the wire says the turn has started, and the SDK may dispatch a notification ahead of
    // an earlier request, so keep cancelling until the prompt answers (bounded by waitUntil).
    await waitUntil(
      () => {
        if (!settled) void h.agent.notify(acp.methods.agent.session.cancel, { sessionId: sid });
        return settled;
      },
      15_000,
      "the hang turn to end",
    );
    assert.equal((await pending).stopReason, "cancelled");
    assert.equal(h.updates.length, 0);
  });

  test("unknown scenario names itself and ends the turn", async () => {
    const h = start();
    const sid = await initAndSession(h);
    assert.equal((await prompt(h, sid, "/e2e:nope-nope")).stopReason, "end_turn");
    assert.match(agentText(h.updates).join(""), /Unknown scenario "nope-nope"/);
  });

  test("crash sends a chunk, writes the crash line and exits 3", async () => {
    const h = start();
    const sid = await initAndSession(h);
    const res = prompt(h, sid, "/e2e:crash").then(
      () => "resolved",
      () => "rejected",
    );
    const exit = await h.exited;
    assert.equal(exit.code, 3);
    assert.match(h.stderr(), /mock-agent: crashing on purpose/);
    assert.equal(await res, "rejected");
    assert.deepEqual(agentText(h.updates), ["about to crash"]);
  });

  test("crash-once crashes while its marker file is missing (creating it), then answers", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "kandev-"));
    const marker = path.join(dir, "crashed");
    const first = start();
    const sid = await initAndSession(first);
    void prompt(first, sid, `/e2e:crash-once ${marker}`).catch(() => {});
    assert.equal((await first.exited).code, 3);
    assert.ok(fs.existsSync(marker));
    const second = start();
    const sid2 = await initAndSession(second);
    await prompt(second, sid2, `/e2e:crash-once ${marker}`);
    assert.deepEqual(agentText(second.updates), ["running again after the crash"]);
    second.kill();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test("pid says the agent's process id", async () => {
    const h = start();
    const sid = await initAndSession(h);
    await prompt(h, sid, "/e2e:pid");
    assert.deepEqual(agentText(h.updates), [`agent pid ${h.child.pid}`]);
    h.kill();
  });

  test("MOCK_AGENT_LOG records every frame in and out, including initialize's clientCapabilities", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "kandev-"));
    const file = path.join(dir, "frames.jsonl");
    const h = start({ MOCK_AGENT_LOG: file });
    const sid = await initAndSession(h);
    await prompt(h, sid, "/e2e:plain");
    const lines = parseFrameLog(fs.readFileSync(file, "utf8"));
    const methods = lines.map((l) => `${l.dir}:${(l.frame as { method?: string }).method ?? "response"}`);
    assert.deepEqual(methods, [
      "in:initialize",
      "out:response",
      "in:session/new",
      "out:response",
      "in:session/prompt",
      "out:session/update",
      "out:response",
    ]);
    const init = lines[0]!.frame as { params: { clientCapabilities: unknown } };
    assert.deepEqual(init.params.clientCapabilities, { elicitation: { form: {} } });
    assert.ok(lines.every((l) => typeof l.ts === "number"));
    h.kill();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test("the crash frames are all logged before the process dies", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "kandev-"));
    const file = path.join(dir, "frames.jsonl");
    const h = start({ MOCK_AGENT_LOG: file });
    const sid = await initAndSession(h);
    void prompt(h, sid, "/e2e:crash").catch(() => {});
    await h.exited;
    const lines = parseFrameLog(fs.readFileSync(file, "utf8"));
    assert.equal(lines.filter((l) => (l.frame as { method?: string }).method === "session/prompt").length, 1);
    assert.equal(lines.at(-1)?.dir, "out");
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test("closing stdin makes the agent exit 0", async () => {
    const h = start();
    await initAndSession(h);
    h.child.stdin.end();
    const exit = await h.exited;
    assert.equal(exit.code, 0);
  });
});
