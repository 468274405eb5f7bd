// Streamed text reaching the cached transcript: a real QueryClient, the live cache's handler and
// the messages query's fetch, with the board's answer held by the test.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { QueryClient } from "@tanstack/react-query";
import type { Message } from "@kandev/protocol";
import { applyNotification, ledgerFor } from "./live-cache";
import type { Page, Pages } from "./paged-list";
import { fetchMessagesPage } from "./queries";
import { queryKeys } from "./query-keys";
import { makeMessage } from "./test-fixtures";

const KEY = queryKeys.messages("s1");
const push = (qc: QueryClient, offset: number, text: string) =>
  applyNotification(qc, { action: "session.message.appended", payload: { session_id: "s1", task_id: "t1", message_id: "m1", offset, text } });
const content = (qc: QueryClient) => qc.getQueryData<Pages<Message>>(KEY)?.pages[0]?.items[0]?.content;

function cached(text: string): QueryClient {
  const qc = new QueryClient();
  qc.setQueryData<Pages<Message>>(KEY, { pages: [{ items: [makeMessage({ content: text })], next: null }], pageParams: [null] });
  return qc;
}

/** Starts a fetch of the first page; `answer` is the board's reply to it. */
function fetching(qc: QueryClient) {
  let answer!: (page: Page<Message>) => void;
  const get = () => new Promise<Page<Message>>((resolve) => (answer = resolve));
  const done = qc.fetchQuery({ queryKey: ["page"], queryFn: ({ signal }) => fetchMessagesPage(ledgerFor(qc), "s1", null, signal, get) });
  return { done, answer: (text: string) => answer({ items: [makeMessage({ content: text })], next: null }) };
}

describe("streamed text in the cached transcript", () => {
  test("deltas that follow on are appended in place", () => {
    const qc = cached("Hel");
    push(qc, 3, "lo");
    push(qc, 5, " world");
    assert.equal(content(qc), "Hello world");
    assert.equal(qc.getQueryState(KEY)?.isInvalidated, false);
  });

  test("a delta after a missed one marks the transcript for a refetch and is not laid on it", () => {
    const qc = cached("Hel");
    push(qc, 5, " world");
    assert.equal(content(qc), "Hel");
    assert.equal(qc.getQueryState(KEY)?.isInvalidated, true);
  });

  test("a transcript never fetched stays unfetched", () => {
    const qc = new QueryClient();
    push(qc, 0, "Hi");
    assert.equal(qc.getQueryData(KEY), undefined);
  });

  test("deltas that arrive while a page is fetched end up in it, read by the fetch or not", async () => {
    const qc = new QueryClient();
    const f = fetching(qc);
    push(qc, 0, "He");
    push(qc, 2, "llo");
    push(qc, 5, "!");
    f.answer("Hel"); // the board read the message between the first and second delta
    assert.equal((await f.done).items[0]?.content, "Hello!");
  });

  test("a delta that does not fit while an earlier page loads is fetched once that load ends", async () => {
    const qc = cached("Hel");
    let finish!: () => void;
    // An earlier page loading: the query is fetching, and what it brings does not hold m1's text.
    const loading = qc.fetchQuery({
      queryKey: KEY,
      queryFn: () => new Promise<Pages<Message>>((resolve) => (finish = () => resolve(qc.getQueryData<Pages<Message>>(KEY)!))),
    });
    push(qc, 5, " world");
    push(qc, 11, "!");
    assert.equal(qc.getQueryState(KEY)?.isInvalidated, false, "the running load is not restarted");
    finish();
    await loading;
    await new Promise((r) => setImmediate(r));
    assert.equal(qc.getQueryState(KEY)?.isInvalidated, true, "the transcript is fetched again after it");
  });
});
