// A /ws client that stops reading must not cost the board: the board drops it once its queue passes
// MAX_QUEUED_BYTES (ws/hub.ts), keeps serving everyone else, and the reply is stored whole.
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import net from "node:net";
import path from "node:path";
import { after, describe, test } from "node:test";
import type { Message, MessageAppended } from "@kandev/protocol";
import { floodChunk } from "@kandev/mock-agent";
import {
  WsClient,
  api,
  createTask,
  eventually,
  followMessage,
  killBackendProcesses,
  startBackendProcess,
  tempDir,
  waitForTaskState,
} from "./helpers.js";

// Streamed text reaches /ws as deltas (about one byte per byte of text), so filling a queue of
// MAX_QUEUED_BYTES plus the kernel's socket buffers takes ~12 MB of replies: a dozen turns of 1 MB,
// each short, so the rewrite of the growing row per chunk (until item 3 of issue 35) stays cheap.
const TURNS = 12;
const CHUNKS = 16;
const SIZE = 64 * 1024;

/** A client text frame (clients mask theirs, RFC 6455 5.3). */
function maskedTextFrame(text: string): Buffer {
  const payload = Buffer.from(text);
  const mask = randomBytes(4);
  const length = payload.length < 126 ? Buffer.from([0x80 | payload.length]) : Buffer.from([0x80 | 126, payload.length >> 8, payload.length & 0xff]);
  const masked = Buffer.from(payload.map((byte, i) => byte ^ mask[i % 4]!));
  return Buffer.concat([Buffer.from([0x81]), length, mask, masked]);
}

/**
 * A WebSocket on `/ws` by hand, subscribed to `topic`; once the board confirmed the subscription
 * it stops reading (TCP flow control then backs the board's writes up into its own queue).
 */
async function subscriberThatStopsReading(base: string, topic: Record<string, string>): Promise<net.Socket> {
  const url = new URL(base);
  const socket = net.connect(Number(url.port), url.hostname);
  await new Promise<void>((resolve, reject) => socket.once("connect", resolve).once("error", reject));
  const key = randomBytes(16).toString("base64");
  socket.write(
    `GET /ws HTTP/1.1\r\nHost: ${url.host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
  );
  socket.write(maskedTextFrame(JSON.stringify({ id: "s-1", type: "request", action: "subscribe", payload: topic })));
  let seen = "";
  await new Promise<void>((resolve, reject) => {
    const onData = (d: Buffer) => {
      seen += d.toString("latin1");
      if (seen.includes('"id":"s-1"')) {
        socket.off("data", onData);
        socket.pause();
        resolve();
      }
    };
    socket.on("data", onData);
    socket.once("error", reject);
  });
  assert.match(seen, /^HTTP\/1\.1 101 /);
  return socket;
}

/** Reads what is left until the board closes the socket, or `ms` pass; bytes read and whether it closed. */
function drain(socket: net.Socket, ms: number): Promise<{ bytes: number; closedByBoard: boolean }> {
  return new Promise((resolve) => {
    let bytes = 0;
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ bytes, closedByBoard: false });
    }, ms);
    socket.on("data", (d: Buffer) => (bytes += d.length));
    socket.once("close", () => {
      clearTimeout(timer);
      resolve({ bytes, closedByBoard: true });
    });
    socket.resume();
  });
}

describe("a /ws reader that does not keep up", () => {
  after(() => killBackendProcesses());

  test("is dropped once its queue is full; the board answers /health meanwhile, other readers get every frame, the replies are stored whole", async () => {
    const b = await startBackendProcess(path.join(tempDir(), "kandev.db"));
    try {
      const { task, session } = await createTask(b.url, "/e2e:plain");
      await waitForTaskState(b.url, task.id, "REVIEW");
      const stalled = await subscriberThatStopsReading(b.url, { task_id: task.id });
      const healthy = await WsClient.connect(b.url);
      await healthy.request("subscribe", { task_id: task.id });

      const expected = Array.from({ length: CHUNKS }, (_, i) => floodChunk(i, SIZE)).join("");
      // While the replies stream (~12 MB of deltas for a never-reading client), the board answers.
      let healthChecks = 0;
      for (let turn = 0; turn < TURNS; turn++) {
        assert.equal((await api(b.url, "POST", `/api/v1/sessions/${session.id}/prompt`, { text: `/e2e:flood ${CHUNKS} ${SIZE}` })).status, 202);
        await eventually(
          async () => {
            assert.equal((await api(b.url, "GET", "/api/v1/health")).status, 200);
            healthChecks++;
            return (await api<{ state: string }>(b.url, "GET", `/api/v1/tasks/${task.id}`)).body.state === "REVIEW" ? true : undefined;
          },
          `flood turn ${turn + 1} to end`,
        );
      }
      assert.ok(healthChecks >= TURNS);

      const messages = (await api<Message[]>(b.url, "GET", `/api/v1/sessions/${session.id}/messages`)).body;
      const replies = messages.filter((m) => m.author_type === "agent" && m.content.length === expected.length);
      assert.equal(replies.length, TURNS);
      for (const m of replies) assert.equal(m.content, expected, "each stored reply is the agent's text, whole");
      const last = replies.at(-1) as Message;
      await healthy.waitFor(
        (f) =>
          f.action === "session.message.appended" &&
          (f.payload as MessageAppended).message_id === last.id &&
          (f.payload as MessageAppended).offset + (f.payload as MessageAppended).text.length === expected.length,
        "the healthy reader's last delta to reach the last reply's end",
      );
      const noRefetch = () => Promise.reject(new Error("the healthy reader missed a delta"));
      for (const m of replies) {
        assert.equal((await followMessage(healthy.frames, m.id, noRefetch)).content, expected, "the healthy reader holds every reply whole");
      }
      healthy.close();

      const { bytes, closedByBoard } = await drain(stalled, 10_000);
      assert.ok(closedByBoard, "the board ended the stalled socket");
      assert.ok(bytes < 32 * 1024 * 1024, `the stalled socket got ${bytes} bytes; at most its queue bound plus the kernel's buffers`);
      assert.match(b.stderr(), /dropping a \/ws client that does not keep up/);
    } finally {
      b.child.kill("SIGTERM");
      await b.exited;
    }
  });
});
