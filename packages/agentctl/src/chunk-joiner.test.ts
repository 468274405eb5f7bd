import { describe, test } from "node:test";
import assert from "node:assert/strict";
import type { AgentEvent } from "@kandev/protocol";
import { ChunkJoiner, MAX_JOINED_CHARS } from "./chunk-joiner.js";

type UpdateEvent = AgentEvent<"session.update">;

const text = (t: string, session = "s1", turn: string | null = "t1"): UpdateEvent => ({
  session_id: session,
  turn_id: turn,
  update: { kind: "agent_message_chunk", text: t },
});
const thought = (t: string): UpdateEvent => ({ session_id: "s1", turn_id: "t1", update: { kind: "agent_thought_chunk", text: t } });
const tool = (id: string): UpdateEvent => ({ session_id: "s1", turn_id: "t1", update: { kind: "tool_call", tool_call_id: id, title: id } });

/** A joiner whose scheduled flushes run when the test says (`tick`). */
function setup() {
  const sent: UpdateEvent[] = [];
  let queued: Array<() => void> = [];
  const joiner = new ChunkJoiner(
    (e) => sent.push(e),
    (run) => queued.push(run),
  );
  const tick = () => {
    const runs = queued;
    queued = [];
    for (const run of runs) run();
  };
  const texts = () => sent.map((e) => ("text" in e.update ? e.update.text : `[${e.update.kind}]`));
  return { joiner, sent, tick, texts, queued: () => queued.length };
}

describe("joining streamed chunks in agentctl", () => {
  test("the chunks of one read go out as one event once the queued work is done", () => {
    const s = setup();
    for (let i = 0; i < 500; i++) s.joiner.add(text(`${i % 10}`));
    assert.equal(s.sent.length, 0, "nothing waits on a timer: the flush is scheduled, not sent per chunk");
    assert.equal(s.queued(), 1, "one flush scheduled for the whole burst");
    s.tick();
    assert.equal(s.sent.length, 1);
    assert.equal(s.texts()[0], "0123456789".repeat(50));
  });

  test("anything else goes out after the text before it, and a new kind, session or turn starts a new join", () => {
    const s = setup();
    s.joiner.add(text("a"));
    s.joiner.add(text("b"));
    s.joiner.add(tool("c1"));
    s.joiner.add(text("c"));
    s.joiner.add(thought("d"));
    s.joiner.add(text("e", "s2"));
    s.joiner.add(text("f", "s2", "t2"));
    s.tick();
    assert.deepEqual(s.texts(), ["ab", "[tool_call]", "c", "d", "e", "f"]);
  });

  test("flush sends what waits at once (before another event of the session leaves agentctl)", () => {
    const s = setup();
    s.joiner.add(text("x"));
    s.joiner.flush();
    assert.deepEqual(s.texts(), ["x"]);
    s.tick();
    assert.deepEqual(s.texts(), ["x"], "the scheduled flush finds nothing left");
  });

  test("a join never grows past the cap: a long run goes in pieces, none lost", () => {
    const s = setup();
    const piece = "y".repeat(1024);
    const count = (2 * MAX_JOINED_CHARS) / piece.length + 3;
    for (let i = 0; i < count; i++) s.joiner.add(text(piece));
    s.tick();
    assert.ok(s.sent.length >= 3);
    for (const t of s.texts()) assert.ok(t.length <= MAX_JOINED_CHARS);
    assert.equal(s.texts().join(""), piece.repeat(count));
  });
});
