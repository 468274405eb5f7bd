// The agent log's first fetch and the lines pushed while it runs: a real QueryClient, the live
// cache's handler and the log query's fetch, with the board's answer held by the test.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { QueryClient } from "@tanstack/react-query";
import type { SessionLogLine, SessionLogs } from "@kandev/protocol";
import { applyNotification } from "./live-cache";
import { fetchSessionLogs } from "./queries";
import { queryKeys } from "./query-keys";

const line = (s: number, text: string): SessionLogLine => ({ at: new Date(Date.UTC(2026, 0, 1, 0, 0, s)).toISOString(), text });
const push = (qc: QueryClient, lines: SessionLogLine[]) =>
  applyNotification(qc, { action: "session.log", payload: { session_id: "s1", task_id: "t1", lines } });

/** Starts a fetch of the log; `answer` is the board's reply to it, `fail` its failure. */
function firstFetch(qc: QueryClient) {
  let answer!: (logs: SessionLogs) => void;
  let fail!: (err: Error) => void;
  const get = () =>
    new Promise<SessionLogs>((resolve, reject) => {
      answer = resolve;
      fail = reject;
    });
  const done = qc.fetchQuery({ queryKey: queryKeys.sessionLogs("s1"), queryFn: ({ signal }) => fetchSessionLogs(qc, "s1", signal, get) });
  return { done, answer: (logs: SessionLogs) => answer(logs), fail: (err: Error) => fail(err) };
}

describe("the agent log while its first fetch is in flight", () => {
  test("a line pushed after the board answered the fetch without it is kept", async () => {
    const qc = new QueryClient();
    const f = firstFetch(qc);
    push(qc, [line(2, "agent booting")]);
    f.answer({ lines: [line(1, "older")] });
    assert.deepEqual(
      (await f.done).map((l) => l.text),
      ["older", "agent booting"],
    );
    assert.deepEqual(
      qc.getQueryData<SessionLogLine[]>(queryKeys.sessionLogs("s1"))?.map((l) => l.text),
      ["older", "agent booting"],
    );
  });

  test("a line the answer already has is not doubled", async () => {
    const qc = new QueryClient();
    const f = firstFetch(qc);
    push(qc, [line(2, "agent booting")]);
    f.answer({ lines: [line(2, "agent booting")] });
    assert.deepEqual(
      (await f.done).map((l) => l.text),
      ["agent booting"],
    );
  });

  test("a first fetch that fails keeps the pushed lines, and the next fetch merges them", async () => {
    const qc = new QueryClient();
    const f = firstFetch(qc);
    push(qc, [line(2, "agent booting")]);
    f.fail(new Error("502 Bad Gateway"));
    await assert.rejects(f.done, /502/);
    assert.equal(qc.getQueryState(queryKeys.sessionLogs("s1"))?.status, "error");
    assert.deepEqual(
      qc.getQueryData<SessionLogLine[]>(queryKeys.sessionLogs("s1"))?.map((l) => l.text),
      ["agent booting"],
    );
    const retry = firstFetch(qc);
    retry.answer({ lines: [line(1, "older")] });
    assert.deepEqual(
      (await retry.done).map((l) => l.text),
      ["older", "agent booting"],
    );
  });

  test("a log nobody opened keeps nothing", () => {
    const qc = new QueryClient();
    push(qc, [line(2, "agent booting")]);
    assert.equal(qc.getQueryData(queryKeys.sessionLogs("s1")), undefined);
  });

  test("lines pushed once the log is loaded are appended", async () => {
    const qc = new QueryClient();
    const f = firstFetch(qc);
    f.answer({ lines: [line(1, "a")] });
    await f.done;
    push(qc, [line(2, "b")]);
    assert.deepEqual(
      qc.getQueryData<SessionLogLine[]>(queryKeys.sessionLogs("s1"))?.map((l) => l.text),
      ["a", "b"],
    );
  });
});
