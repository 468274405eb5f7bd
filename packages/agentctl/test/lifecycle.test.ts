// Process lifecycle of the built agentctl CLI: start-up refusals, SIGTERM, stdin close.
import { test, describe, after } from "node:test";
import assert from "node:assert/strict";
import { killAll, processGone, spawnAgentctl, startAgentctlProcess, startSession } from "./agentctl-process.js";

after(killAll);

async function waitGone(pid: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!processGone(pid)) {
    if (Date.now() > deadline) throw new Error(`process ${pid} still alive after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe("agentctl process lifecycle", () => {
  test("refuses arguments: it has none (exit 2, clear message, nothing on stdout)", async () => {
    const r = spawnAgentctl(["--port", "0"], {});
    const exit = await r.exited;
    assert.equal(exit.code, 2);
    assert.match(r.stderr(), /unknown argument "--port" \(agentctl takes none/);
    assert.equal(r.stdout(), "");
  });

  test("refuses to start when the answer timeout is not below the idle timeout", async () => {
    const r = spawnAgentctl([], {
      KANDEV_ELICITATION_ANSWER_TIMEOUT: "1h",
      KANDEV_ACP_IDLE_TIMEOUT: "1h",
    });
    const exit = await r.exited;
    assert.equal(exit.code, 2);
    assert.match(r.stderr(), /elicitation answer timeout \(1h\) must be strictly below the ACP idle timeout \(1h\)/);
  });

  test("refuses a duration it cannot read", async () => {
    const r = spawnAgentctl([], { KANDEV_ACP_IDLE_TIMEOUT: "soon" });
    assert.equal((await r.exited).code, 2);
    assert.match(r.stderr(), /KANDEV_ACP_IDLE_TIMEOUT="soon" is not a duration/);
  });

  test("valid custom timeouts: it starts, writes nothing until asked, and answers on stdout", async () => {
    const ctl = await startAgentctlProcess({ KANDEV_ELICITATION_ANSWER_TIMEOUT: "500ms", KANDEV_ACP_IDLE_TIMEOUT: "30s" });
    const out = await ctl.connect().request("agent.status", {});
    assert.equal((out.payload as { code: string }).code, "NOT_FOUND");
    assert.equal(ctl.line.frames.length, 1, "no listening line, no banner: only the answer");
  });

  test("SIGTERM during a slow turn: exits 0 quickly and the agent process is gone", async () => {
    const { ctl, client, sessionId } = await startSession();
    const status = await client.call<{ agent_pid: number }>("agent.status");
    assert.ok(status.agent_pid > 0);
    await client.call("agent.prompt", { session_id: sessionId, text: "/e2e:slow", turn_id: "t1" });
    await client.waitForEvent("session.update", { turn_id: "t1" });
    const t0 = Date.now();
    ctl.child.kill("SIGTERM");
    const exit = await ctl.exited;
    assert.equal(exit.code, 0);
    assert.ok(Date.now() - t0 < 4000, `took ${Date.now() - t0} ms`);
    await waitGone(status.agent_pid, 2000);
  });

  test("closing stdin (parent died) makes agentctl exit and stop its agent", async () => {
    const { ctl, client } = await startSession();
    const { agent_pid } = await client.call<{ agent_pid: number }>("agent.status");
    ctl.line.end();
    const exit = await ctl.exited;
    assert.equal(exit.code, 0);
    await waitGone(agent_pid, 2000);
  });
});
