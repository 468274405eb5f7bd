// Streamed agent text reaches /ws clients as batched deltas (session.message.appended), not as the
// whole message again per chunk: a reply costs about its own length on the wire, and a client that
// misses a delta sees the gap and ends with the exact text by refetching over REST.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { Envelope, Message, MessageAppended } from "@kandev/protocol";
import { floodChunk } from "@kandev/mock-agent";
import { WsClient, api, createTask, followMessage, getMessages, startTestServer, waitForTaskState } from "./helpers.js";

const CHUNKS = 2000;
const SIZE = 10;
const EXPECTED = Array.from({ length: CHUNKS }, (_, i) => floodChunk(i, SIZE)).join("");
/** A frame's envelope and ids: well under this many bytes on top of the text it carries. */
const FRAME_OVERHEAD = 400;

type Server = Awaited<ReturnType<typeof startTestServer>>;

describe("streamed text on /ws", () => {
  let server: Server;
  let ws: WsClient;
  let sessionId: string;
  let reply: Message;
  let framesBefore: number;
  let bytesBefore: number;

  before(async () => {
    server = await startTestServer();
    const { task, session } = await createTask(server.url, "/e2e:plain");
    sessionId = session.id;
    await waitForTaskState(server.url, task.id, "REVIEW");
    ws = await WsClient.connect(server.url);
    await ws.request("subscribe", { task_id: task.id });
    framesBefore = ws.frames.length;
    bytesBefore = ws.receivedBytes;
    const res = await api<{ turn_id: string }>(server.url, "POST", `/api/v1/sessions/${session.id}/prompt`, { text: `/e2e:flood ${CHUNKS} ${SIZE}` });
    assert.equal(res.status, 202);
    await waitForTaskState(server.url, task.id, "REVIEW");
    // The turn's end is pushed after its last delta (the hub sends a session's batch first).
    await ws.waitFor(
      (f) => f.action === "session.updated" && (f.payload as { session: { state: string } }).session.state === "WAITING_FOR_INPUT",
      "the turn's end",
    );
    const stored = (await getMessages(server.url, session.id)).filter((m) => m.turn_id === res.body.turn_id && m.author_type === "agent");
    assert.equal(stored.length, 1);
    reply = stored[0] as Message;
  });
  after(async () => {
    ws?.close();
    await server?.close();
  });

  const restContent = async () => {
    const m = (await getMessages(server.url, sessionId)).find((x) => x.id === reply.id);
    assert.ok(m !== undefined);
    return m.content;
  };
  const streamFrames = () => ws.frames.slice(framesBefore);
  const deltas = () =>
    streamFrames()
      .filter((f) => f.action === "session.message.appended")
      .map((f) => f.payload as MessageAppended);

  test("the message added plus its deltas rebuild exactly what REST holds, with no refetch", async () => {
    assert.equal(reply.content, EXPECTED, "the stored reply is the agent's text");
    const copy = await followMessage(streamFrames(), reply.id, restContent);
    assert.equal(copy.refetches, 0);
    assert.equal(copy.content, EXPECTED);
    assert.ok(copy.deltas > 0, "the text came as deltas");
    const frames = streamFrames();
    const end = frames.findIndex(
      (f) => f.action === "session.updated" && (f.payload as { session: { state: string } }).session.state === "WAITING_FOR_INPUT",
    );
    const lastDelta = frames.findLastIndex((f) => f.action === "session.message.appended");
    assert.ok(lastDelta < end, "the turn's end comes after its last text");
  });

  test("streaming sends only what was added: fewer frames than chunks, and about one byte per byte of text", () => {
    const frames = streamFrames();
    const aboutReply = frames.filter(
      (f: Envelope) => f.action === "session.message.updated" && (f.payload as { message: Message }).message.id === reply.id,
    );
    assert.equal(aboutReply.length, 0, "the streaming message is never re-sent whole");
    const d = deltas();
    assert.ok(d.length < CHUNKS, `${d.length} delta frames for ${CHUNKS} chunks: batched`);
    const added = frames.find((f) => f.action === "session.message.added" && (f.payload as { message: Message }).message.id === reply.id);
    assert.ok(added !== undefined, "the reply was added");
    const firstText = (added.payload as { message: Message }).message.content;
    assert.equal(firstText + d.map((x) => x.text).join(""), EXPECTED, "the deltas carry the reply once, in order");
    const bytes = ws.receivedBytes - bytesBefore;
    assert.ok(
      bytes <= 3 * EXPECTED.length + FRAME_OVERHEAD * frames.length,
      `${bytes} bytes in ${frames.length} frames for ${EXPECTED.length} bytes of text`,
    );
  });

  test("a client that misses a delta sees the gap, refetches over REST and ends with the exact text", async () => {
    // A reply in ticks 100 ms apart: each tick is its own delta (APPEND_WINDOW_MS is shorter), so there is one to miss.
    const from = ws.frames.length;
    const res = await api<{ turn_id: string }>(server.url, "POST", `/api/v1/sessions/${sessionId}/prompt`, { text: "/e2e:slow 5" });
    assert.equal(res.status, 202);
    await waitForTaskState(server.url, reply.task_id, "REVIEW");
    const ended = (f: Envelope) =>
      f.action === "session.updated" && (f.payload as { session: { state: string } }).session.state === "WAITING_FOR_INPUT";
    await ws.waitFor((f) => ws.frames.indexOf(f) >= from && ended(f), "the second turn's end");
    const [ticks] = (await getMessages(server.url, sessionId)).filter((m) => m.turn_id === res.body.turn_id && m.author_type === "agent");
    assert.ok(ticks !== undefined);
    assert.equal(ticks.content, "tick 1 tick 2 tick 3 tick 4 tick 5 ");
    const refetch = async () => (await getMessages(server.url, sessionId)).find((m) => m.id === ticks.id)?.content ?? "";
    const frames = ws.frames.slice(from);
    const whole = await followMessage(frames, ticks.id, refetch);
    assert.deepEqual([whole.content, whole.refetches], [ticks.content, 0], "a client that misses nothing never refetches");
    assert.ok(whole.deltas >= 2, `${whole.deltas} deltas: one to miss and one after it`);
    const lossy = await followMessage(frames, ticks.id, refetch, (i) => i === 0);
    assert.equal(lossy.refetches, 1, "the delta after the missed one did not fit: one refetch");
    assert.equal(lossy.content, ticks.content);
  });
});
