// What a crash can lose (docs/RELIABILITY.md, issue 35 item 3): streamed agent text reaches disk in
// batches (domain/stream-writes.ts), so a board killed with SIGKILL while a reply streams loses at
// most the last batch of that reply, and never a question, its answer, a turn's end, an earlier
// reply or a user message. Proven on the board as a real process, killed for real.
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import Database from "better-sqlite3";
import type { Clarification, Message, MessageAppended } from "@kandev/protocol";
import { floodChunk } from "@kandev/mock-agent";
import { APPEND_MAX_CHARS } from "../src/domain/stream-writes.js";
import { waitForClarifications, respond, waitForClarificationStatus } from "./clarification-helpers.js";
import {
  WsClient,
  api,
  backendMain,
  createTask,
  getMessages,
  getSession,
  killBackendProcesses,
  requireBuilt,
  startBackendProcess,
  tempDir,
  waitForTaskState,
} from "./helpers.js";

/** A turn's recorded end, read from the file itself (no route lists turns). */
function stopReason(dbPath: string, turnId: string): string | null {
  const db = new Database(dbPath, { readonly: true });
  try {
    return (db.prepare("SELECT stop_reason FROM turns WHERE id = ?").get(turnId) as { stop_reason: string | null } | undefined)?.stop_reason ?? null;
  } finally {
    db.close();
  }
}

const flooded = (chunks: number, size: number) => Array.from({ length: chunks }, (_, i) => floodChunk(i, size)).join("");

const userTexts = (ms: Message[]) => ms.filter((m) => m.author_type === "user").map((m) => m.content);
const agentTextOf = (ms: Message[], turnId: string) => ms.filter((m) => m.turn_id === turnId && m.author_type === "agent" && m.type === "text");

describe("a board killed while a reply streams", () => {
  requireBuilt([backendMain]);
  after(killBackendProcesses);

  test("loses at most the reply's last batch; questions, answers, turn ends, earlier replies and prompts survive", async () => {
    const dbPath = path.join(tempDir(), "kandev.db");
    const b = await startBackendProcess(dbPath);
    const ws = await WsClient.connect(b.url);
    let sessionId: string;
    let earlierTurn: string;
    let streamingTurn: string;
    const streamed = flooded(3_000, 10);
    try {
      // Turn 1: a question, answered; the turn ends.
      const { task, session } = await createTask(b.url, "/e2e:kandev-question");
      sessionId = session.id;
      const [question] = await waitForClarifications(b.url, session.id);
      const pendingId = question!.metadata.pending_id as string;
      const answered = await respond(b.url, pendingId, { answers: [{ question_id: "database", selected_options: ["postgres"] }] });
      assert.equal(answered.status, 200, JSON.stringify(answered.body));
      await waitForTaskState(b.url, task.id, "REVIEW");
      // Turn 2: a whole reply, streamed fast; the turn ends.
      const second = await api<{ turn_id: string }>(b.url, "POST", `/api/v1/sessions/${session.id}/prompt`, { text: "/e2e:flood 500 10" });
      assert.equal(second.status, 202);
      earlierTurn = second.body.turn_id;
      await waitForTaskState(b.url, task.id, "REVIEW");
      // Turn 3: 30,000 characters streamed, then the agent holds the turn open; the board is killed
      // as soon as a browser has been sent the last of them.
      await ws.request("subscribe", { task_id: task.id });
      const third = await api<{ turn_id: string }>(b.url, "POST", `/api/v1/sessions/${session.id}/prompt`, { text: "/e2e:flood 3000 10 hold" });
      assert.equal(third.status, 202);
      streamingTurn = third.body.turn_id;
      await ws.waitFor((f) => {
        if (f.action !== "session.message.appended") return false;
        const d = f.payload as MessageAppended;
        return d.offset + d.text.length === streamed.length;
      }, "the last streamed character on /ws");
      b.child.kill("SIGKILL");
      await b.exited;
    } finally {
      ws.close();
    }

    const again = await startBackendProcess(dbPath);
    try {
      const messages = await getMessages(again.url, sessionId);
      assert.deepEqual(userTexts(messages), ["/e2e:kandev-question", "/e2e:flood 500 10", "/e2e:flood 3000 10 hold"], "every prompt is kept");
      const question = messages.find((m) => m.type === "clarification_request");
      assert.ok(question !== undefined, "the question is kept");
      const record = await waitForClarificationStatus(again.url, question.metadata.pending_id as string, "answered");
      assert.deepEqual(
        (record as Clarification).resolution?.answers,
        [{ question_id: "database", selected_options: ["postgres"] }],
        "its answer is kept",
      );
      assert.equal(
        agentTextOf(messages, earlierTurn)
          .map((m) => m.content)
          .join(""),
        flooded(500, 10),
        "the earlier reply is whole",
      );
      assert.equal(stopReason(dbPath, earlierTurn), "end_turn", "the earlier turn's end is kept");
      const kept = agentTextOf(messages, streamingTurn)
        .map((m) => m.content)
        .join("");
      assert.ok(streamed.startsWith(kept), "what is kept of the streaming reply is its beginning, nothing else");
      const lost = streamed.length - kept.length;
      assert.ok(lost <= APPEND_MAX_CHARS + 10, `lost ${lost} characters: more than one batch`);
      const session = await getSession(again.url, sessionId);
      assert.deepEqual([session.state, session.error], ["CANCELLED", "backend restarted"]);
    } finally {
      again.child.kill("SIGTERM");
      await again.exited;
    }
  });
});
