// Process lifecycle of the built agentctl CLI: start-up refusals, SIGTERM, stdin close.
import { test, describe, after } from "node:test";
import assert from "node:assert/strict";
import { killAll, processGone, spawnAgentctl, startSession } from "./agentctl-process.js";

after(killAll);

async function waitGone(pid: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!processGone(pid)) {
    if (Date.now() > deadline) throw new Error(`process ${pid} still alive after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe("agentctl process lifecycle", () => {
  test("refuses to start without a token (exit 2, clear message)", async () => {
    const r = spawnAgentctl(["--port", "0"], { AGENTCTL_TOKEN: undefined });
    const exit = await r.exited;
    assert.equal(exit.code, 2);
    assert.match(r.stderr(), /no token: pass --token <T> or set AGENTCTL_TOKEN/);
    assert.equal(r.stdout(), "");
  });

  test("refuses to start when the answer timeout is not below the idle timeout", async () => {
    const r = spawnAgentctl(["--port", "0"], {
      AGENTCTL_TOKEN: "t",
      KANDEV_ELICITATION_ANSWER_TIMEOUT: "1h",
      KANDEV_ACP_IDLE_TIMEOUT: "1h",
    });
    const exit = await r.exited;
    assert.equal(exit.code, 2);
    assert.match(r.stderr(), /elicitation answer timeout \(1h\) must be strictly below the ACP idle timeout \(1h\)/);
  });

  test("refuses a duration it cannot read", async () => {
    const r = spawnAgentctl(["--port", "0"], { AGENTCTL_TOKEN: "t", KANDEV_ACP_IDLE_TIMEOUT: "soon" });
    assert.equal((await r.exited).code, 2);
    assert.match(r.stderr(), /KANDEV_ACP_IDLE_TIMEOUT="soon" is not a duration/);
  });

  test("refuses bad arguments", async () => {
    const r = spawnAgentctl(["--port", "abc", "--token", "t"], {});
    assert.equal((await r.exited).code, 2);
    assert.match(r.stderr(), /--port must be an integer/);
  });

  test("accepts --token on the command line and valid custom timeouts", async () => {
    const r = spawnAgentctl(["--port", "0", "--token", "t"], {
      AGENTCTL_TOKEN: undefined,
      KANDEV_ELICITATION_ANSWER_TIMEOUT: "500ms",
      KANDEV_ACP_IDLE_TIMEOUT: "30s",
    });
    try {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no listening line; stderr: ${r.stderr()}`)), 30_000);
        r.child.stdout.on("data", () => {
          if (r.stdout().includes("\n")) {
            clearTimeout(timer);
            resolve();
          }
        });
      });
      const line = JSON.parse(r.stdout().trim()) as { event: string; port: number };
      assert.equal(line.event, "listening");
      assert.ok(line.port > 0);
    } finally {
      r.child.kill("SIGKILL");
    }
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
    ctl.child.stdin.end();
    const exit = await ctl.exited;
    assert.equal(exit.code, 0);
    await waitGone(agent_pid, 2000);
  });
});
