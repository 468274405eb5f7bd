// One agentctl per host: every live session runs under it, multiplexed on its stdio; one agent's
// crash is that session's alone; agentctl dying interrupts its sessions as a backend restart does,
// and their next prompt resumes them on a fresh agentctl. Real processes over real pipes.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import type { Message } from "@kandev/protocol";
import {
  agentPids,
  api,
  createTask,
  eventually,
  getMessages,
  getSession,
  isGoneOrZombie,
  newAgentPid,
  startTestServer,
  waitForTaskState,
} from "./helpers.js";

type Server = Awaited<ReturnType<typeof startTestServer>>;

const replied = (messages: Message[], turnId: string, text: RegExp) =>
  messages.some((m) => m.turn_id === turnId && m.author_type === "agent" && m.type === "text" && text.test(m.content));

async function prompt(base: string, sessionId: string, text: string): Promise<string> {
  const res = await api<{ turn_id: string }>(base, "POST", `/api/v1/sessions/${sessionId}/prompt`, { text });
  assert.equal(res.status, 202, JSON.stringify(res.body));
  return res.body.turn_id;
}

/** The process name of `pid` (Linux /proc). */
const commandOf = (pid: number) => fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ");

describe("one agentctl per host", () => {
  let server: Server;
  let base: string;
  before(async () => {
    server = await startTestServer();
    base = server.url;
  });
  after(async () => {
    await server?.close();
  });

  test("five live sessions run under ONE agentctl process, each with its own agent", async () => {
    const sessions = await Promise.all(Array.from({ length: 5 }, (_, i) => createTask(base, `/e2e:echo five-${i}`)));
    for (const { task } of sessions) await waitForTaskState(base, task.id, "REVIEW");
    const ctl = server.childPids();
    assert.equal(ctl.length, 1, `one agentctl, found ${ctl.join(",")}`);
    assert.match(commandOf(ctl[0]!), /agentctl/);
    const agents = agentPids(server).filter((p) => !isGoneOrZombie(p));
    assert.equal(agents.length, 5, "five agents, all children of that agentctl");
    for (const [i, { session }] of sessions.entries()) {
      const turn = await prompt(base, session.id, `/e2e:echo again-${i}`);
      await eventually(
        async () => (replied(await getMessages(base, session.id), turn, new RegExp(`again-${i}`)) ? true : undefined),
        `session ${i} answers`,
      );
    }
    assert.deepEqual(server.childPids(), ctl, "still the same agentctl");
  });

  test("one session's agent crashing fails that session only; another session keeps answering", async () => {
    const before = agentPids(server);
    const calm = await createTask(base, "/e2e:echo calm");
    await waitForTaskState(base, calm.task.id, "REVIEW");
    const crashing = await createTask(base, "/e2e:crash");
    await waitForTaskState(base, crashing.task.id, "FAILED");
    assert.equal((await getSession(base, calm.session.id)).state, "WAITING_FOR_INPUT");
    const turn = await prompt(base, calm.session.id, "/e2e:echo still answering");
    await eventually(
      async () => (replied(await getMessages(base, calm.session.id), turn, /still answering/) ? true : undefined),
      "the calm session answers",
    );
    assert.equal(server.childPids().length, 1);
    assert.ok(
      agentPids(server).some((p) => !before.includes(p) && !isGoneOrZombie(p)),
      "the calm session's agent runs on",
    );
  });

  test("agentctl SIGKILLed: a finished session stays WAITING_FOR_INPUT, a mid-turn one becomes CANCELLED, both say agentctl stopped; a new prompt resumes each on a new agentctl", async () => {
    const agentsBefore = agentPids(server);
    const done = await createTask(base, "/e2e:echo finished work");
    await waitForTaskState(base, done.task.id, "REVIEW");
    const busy = await createTask(base, "/e2e:hang");
    await newAgentPid(server, agentsBefore);
    await eventually(async () => ((await getSession(base, busy.session.id)).state === "RUNNING" ? true : undefined), "hang turn running");
    const [old] = server.childPids();
    const orphans = agentPids(server);
    process.kill(old!, "SIGKILL");

    const finished = await eventually(async () => {
      const s = await getSession(base, done.session.id);
      return s.error === "agentctl stopped" ? s : undefined;
    }, "the finished session marked");
    assert.equal(finished.state, "WAITING_FOR_INPUT");
    await waitForTaskState(base, done.task.id, "REVIEW");
    const interrupted = await waitForTaskState(base, busy.task.id, "CANCELLED");
    assert.equal(interrupted.pending_action, null);
    const s = await getSession(base, busy.session.id);
    assert.deepEqual([s.state, s.error], ["CANCELLED", "agentctl stopped"]);
    const status = (await getMessages(base, busy.session.id)).filter((m) => m.type === "status").map((m) => m.content);
    assert.ok(status.includes("Session ended: agentctl stopped"), status.join(" | "));
    assert.ok(!status.some((t) => /backend restarted/.test(t)));
    assert.deepEqual(server.childPids(), [], "no agentctl until a session needs one");
    // Its agents saw their stdin end and left: nothing orphaned.
    await eventually(() => (orphans.every(isGoneOrZombie) ? true : undefined), "the dead agentctl's agents gone");

    for (const [session, text] of [
      [done.session.id, "back to work"],
      [busy.session.id, "resumed after all"],
    ] as const) {
      const turn = await prompt(base, session, `/e2e:echo ${text}`);
      await eventually(async () => (replied(await getMessages(base, session), turn, new RegExp(text)) ? true : undefined), `${text}: reply`);
    }
    const now = server.childPids();
    assert.equal(now.length, 1);
    assert.notEqual(now[0], old, "a fresh agentctl");
  });
});
