import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { QueryClient, QueryObserver } from "@tanstack/react-query";
import type { Envelope, Message, Task } from "@kandev/protocol";
import { flattenPages, type Pages } from "./paged-list";
import { queryKeys } from "./query-keys";
import { WsClient, type SocketLike } from "./ws-client";
import { makeMessage, makeSession, makeTask } from "./test-fixtures";

class FakeSocket implements SocketLike {
  readonly sent: Envelope[] = [];
  closed = false;
  onopen: ((ev: unknown) => void) | null = null;
  onclose: ((ev: unknown) => void) | null = null;
  onerror: ((ev: unknown) => void) | null = null;
  onmessage: ((ev: { data: unknown }) => void) | null = null;
  constructor(readonly url: string) {}
  send(data: string) {
    this.sent.push(JSON.parse(data) as Envelope);
  }
  close() {
    this.closed = true;
  }
  // Test-side controls.
  open() {
    this.onopen?.({});
  }
  drop(code?: number) {
    this.onclose?.(code === undefined ? {} : { code });
  }
  deliver(frame: unknown) {
    this.onmessage?.({ data: typeof frame === "string" ? frame : JSON.stringify(frame) });
  }
  ack(request: Envelope | undefined) {
    assert.ok(request?.id, "expected a request with an id");
    this.deliver({ id: request.id, type: "response", action: request.action, payload: { ok: true } });
  }
}

function setup(extra: Pick<ConstructorParameters<typeof WsClient>[0], "checkAuth" | "onSignedOut"> = {}) {
  const sockets: FakeSocket[] = [];
  const timers: { fn: () => void; ms: number; cancelled: boolean }[] = [];
  const logs: string[] = [];
  const queryClient = new QueryClient();
  const client = new WsClient({
    url: () => "ws://board.test/ws",
    queryClient,
    createSocket: (url) => {
      const s = new FakeSocket(url);
      sockets.push(s);
      return s;
    },
    random: () => 0,
    backoff: { initialMs: 100, maxMs: 1_000 },
    schedule: (fn, ms) => {
      const t = { fn, ms, cancelled: false };
      timers.push(t);
      return () => (t.cancelled = true);
    },
    log: (m) => logs.push(m),
    ...extra,
  });
  const last = () => {
    const s = sockets.at(-1);
    assert.ok(s, "no socket was opened");
    return s;
  };
  return { client, queryClient, sockets, timers, logs, last };
}

/** Polls a condition across microtasks and timers, bounded, for react-query's async internals. */
async function waitFor(condition: () => boolean, timeoutMs = 2_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((r) => setImmediate(r));
  }
}

const notify = (action: string, payload: unknown) => ({ type: "notification", action, payload });

describe("WsClient connection", () => {
  test("sends queued subscriptions on open and reports them acknowledged", () => {
    const { client, last } = setup();
    client.subscribe({ board: true });
    client.start();
    assert.equal(client.getStatus(), "connecting");
    last().open();
    assert.equal(client.getStatus(), "open");
    const [req] = last().sent;
    assert.equal(req?.action, "subscribe");
    assert.deepEqual(req?.payload, { board: true });
    assert.equal(client.isSubscribed({ board: true }), false);
    last().ack(req);
    assert.equal(client.isSubscribed({ board: true }), true);
  });

  test("an acknowledged subscription invalidates cached queries", async () => {
    const { client, queryClient, last } = setup();
    queryClient.setQueryData(queryKeys.tasks(), []);
    client.start();
    last().open();
    client.subscribe({ task_id: "t1" });
    assert.equal(queryClient.getQueryState(queryKeys.tasks())?.isInvalidated, false);
    last().ack(last().sent[0]);
    await waitFor(() => queryClient.getQueryState(queryKeys.tasks())?.isInvalidated === true);
  });

  test("an ack restarts a fetch that began before the subscription was live", async () => {
    // The first fetch may have read the server's state before our subscription existed; whatever
    // changed in between would be lost if that fetch were allowed to stand.
    const { client, queryClient, last } = setup();
    const calls: string[] = [];
    let release!: (v: string) => void;
    const observer = new QueryObserver(queryClient, {
      queryKey: queryKeys.task("t1"),
      queryFn: ({ signal }) => {
        calls.push(signal.aborted ? "aborted" : "started");
        return new Promise<string>((resolve) => {
          if (calls.length === 1) release = resolve;
          else resolve("fresh");
        });
      },
      staleTime: Infinity,
    });
    const unsubscribe = observer.subscribe(() => undefined);
    try {
      assert.equal(calls.length, 1);
      client.start();
      last().open();
      client.subscribe({ task_id: "t1" });
      last().ack(last().sent[0]);
      await waitFor(() => calls.length === 2);
      release("stale");
      await waitFor(() => queryClient.getQueryData(queryKeys.task("t1")) !== undefined);
      assert.equal(queryClient.getQueryData(queryKeys.task("t1")), "fresh");
    } finally {
      unsubscribe();
    }
  });

  test("reconnects with backoff and re-sends every subscription", () => {
    const { client, sockets, timers, last } = setup();
    client.subscribe({ board: true });
    client.subscribe({ task_id: "t1" });
    client.start();
    last().open();
    last().ack(last().sent[0]);
    last().drop();
    assert.equal(client.getStatus(), "reconnecting");
    assert.equal(client.isSubscribed({ board: true }), false, "acks belong to a connection");
    assert.equal(timers.length, 1);
    assert.equal(timers[0]?.ms, 50);
    timers[0]?.fn();
    assert.equal(sockets.length, 2);
    // The first retry fails too: the next delay grows.
    last().drop();
    assert.equal(timers[1]?.ms, 100);
    timers[1]?.fn();
    last().open();
    assert.deepEqual(
      last().sent.map((f) => [f.action, f.payload]),
      [
        ["subscribe", { board: true }],
        ["subscribe", { task_id: "t1" }],
      ],
    );
    // A connection that works (the server acknowledged a subscription) resets the backoff.
    last().ack(last().sent[0]);
    last().drop();
    assert.equal(timers[2]?.ms, 50);
  });

  test("a server that accepts and drops at once does not reset the backoff", () => {
    const { client, timers, last } = setup();
    client.subscribe({ board: true });
    client.start();
    for (let i = 0; i < 5; i += 1) {
      last().open();
      last().drop();
      timers.at(-1)?.fn();
    }
    assert.deepEqual(
      timers.map((t) => t.ms),
      [50, 100, 200, 400, 500],
    );
  });

  test("after a reconnect without subscriptions, queries are invalidated at once", async () => {
    const { client, queryClient, timers, last } = setup();
    client.start();
    last().open();
    queryClient.setQueryData(queryKeys.task("t1"), makeTask());
    last().drop();
    timers[0]?.fn();
    await new Promise((r) => setImmediate(r));
    assert.equal(queryClient.getQueryState(queryKeys.task("t1"))?.isInvalidated, false, "nothing happens before the socket opens");
    last().open();
    await waitFor(() => queryClient.getQueryState(queryKeys.task("t1"))?.isInvalidated === true);
  });

  test("the last release of a subscription sends unsubscribe; earlier ones do not", () => {
    const { client, last } = setup();
    client.start();
    last().open();
    const a = client.subscribe({ task_id: "t1" });
    const b = client.subscribe({ task_id: "t1" });
    assert.equal(last().sent.length, 1, "a second reference does not subscribe twice");
    a();
    a();
    assert.equal(last().sent.length, 1);
    b();
    assert.deepEqual(last().sent.at(-1)?.action, "unsubscribe");
    assert.deepEqual(last().sent.at(-1)?.payload, { task_id: "t1" });
  });

  test("rejects malformed subscription params before sending anything", () => {
    const { client, last } = setup();
    client.start();
    last().open();
    assert.throws(() => client.subscribe({ task_id: "" }));
    assert.equal(last().sent.length, 0);
  });

  test("stop closes the socket and never reconnects", () => {
    const { client, timers, last } = setup();
    client.start();
    last().open();
    const socket = last();
    client.stop();
    assert.equal(socket.closed, true);
    assert.equal(client.getStatus(), "closed");
    socket.drop();
    assert.equal(timers.length, 0);
  });

  test("a refused subscription stays unacknowledged and is logged", () => {
    const { client, logs, last } = setup();
    client.start();
    last().open();
    client.subscribe({ task_id: "t1" });
    const req = last().sent[0];
    last().deliver({ id: req?.id, type: "error", action: "subscribe", payload: { code: "NOT_FOUND", message: "no" } });
    assert.equal(client.isSubscribed({ task_id: "t1" }), false);
    assert.ok(logs.some((l) => l.includes("refused")));
  });
});

/** A paged list with one, last page (what the board and a transcript cache). */
function onePage<T>(items: T[]): Pages<T> {
  return { pages: [{ items, next: null }], pageParams: [null] };
}

function boardTasks(queryClient: QueryClient): Task[] {
  const data = queryClient.getQueryData<Pages<Task>>(queryKeys.tasks());
  return data ? flattenPages(data) : [];
}

describe("WsClient after a refused upgrade (issue 34)", () => {
  test("a socket closed before it opened asks /auth/me; a 401 stops reconnecting and signs out", async () => {
    let checks = 0;
    let signedOut = 0;
    const { client, sockets, timers, last } = setup({
      checkAuth: async () => {
        checks += 1;
        return "signed_out";
      },
      onSignedOut: () => (signedOut += 1),
    });
    client.start();
    last().drop();
    await waitFor(() => signedOut === 1);
    assert.equal(checks, 1);
    assert.equal(client.getStatus(), "closed");
    assert.equal(timers.filter((t) => !t.cancelled).length, 0, "no reconnect scheduled");
    assert.equal(sockets.length, 1);
  });

  test("when /auth/me finds a user or cannot be reached (board down), it reconnects with backoff", async () => {
    const answers: ("signed_in" | "unknown")[] = ["signed_in", "unknown"];
    let signedOut = 0;
    const { client, sockets, timers, last } = setup({
      checkAuth: async () => answers.shift() ?? "unknown",
      onSignedOut: () => (signedOut += 1),
    });
    client.start();
    last().drop();
    await waitFor(() => timers.length === 1);
    timers[0]?.fn();
    assert.equal(sockets.length, 2);
    last().drop();
    await waitFor(() => timers.length === 2);
    assert.equal(client.getStatus(), "reconnecting");
    assert.equal(signedOut, 0);
  });

  test("a connection that had opened and dropped reconnects without asking", () => {
    let checks = 0;
    const { client, timers, last } = setup({
      checkAuth: async () => {
        checks += 1;
        return "signed_out";
      },
    });
    client.start();
    last().open();
    last().drop();
    assert.equal(timers.length, 1);
    assert.equal(checks, 0);
  });

  test("the board's 4401 close on an open socket signs out at once, without asking or reconnecting", () => {
    let checks = 0;
    let signedOut = 0;
    const { client, sockets, timers, last } = setup({
      checkAuth: async () => {
        checks += 1;
        return "signed_in";
      },
      onSignedOut: () => (signedOut += 1),
    });
    client.start();
    last().open();
    last().drop(4401);
    assert.equal(signedOut, 1);
    assert.equal(checks, 0);
    assert.equal(client.getStatus(), "closed");
    assert.equal(timers.length, 0, "no reconnect scheduled");
    assert.equal(sockets.length, 1);
  });

  test("a check still running when the client stops does nothing afterwards", async () => {
    let answer!: (c: "signed_out") => void;
    let signedOut = 0;
    const { client, timers, last } = setup({
      checkAuth: () => new Promise((r) => (answer = r)),
      onSignedOut: () => (signedOut += 1),
    });
    client.start();
    last().drop();
    client.stop();
    answer("signed_out");
    await new Promise((r) => setImmediate(r));
    assert.equal(signedOut, 0);
    assert.equal(timers.length, 0);
  });
});

describe("WsClient cache updates", () => {
  function connected() {
    const ctx = setup();
    ctx.client.start();
    ctx.last().open();
    return ctx;
  }

  test("task.updated lands in the board list and the task's own entry", () => {
    const { queryClient, last } = connected();
    const older = makeTask({ id: "t0", created_at: "2025-12-31T00:00:00.000Z" });
    queryClient.setQueryData(queryKeys.tasks(), onePage([older]));
    const task = makeTask({ id: "t1", state: "REVIEW", turn_active: false });
    last().deliver(notify("task.updated", { task }));
    assert.deepEqual(
      boardTasks(queryClient).map((t) => t.id),
      ["t1", "t0"],
    );
    assert.deepEqual(queryClient.getQueryData(queryKeys.task("t1")), task);
    last().deliver(notify("task.updated", { task: { ...task, title: "renamed" } }));
    assert.equal(boardTasks(queryClient).length, 2);
    assert.equal(queryClient.getQueryData<Task>(queryKeys.task("t1"))?.title, "renamed");
  });

  test("task.deleted takes the task off the board's loaded pages", () => {
    const { queryClient, last } = connected();
    const [a, b] = [makeTask({ id: "a", created_at: "2026-01-02T00:00:00.000Z" }), makeTask({ id: "b" })];
    queryClient.setQueryData(queryKeys.tasks(), {
      pages: [
        { items: [a], next: "c1" },
        { items: [b], next: null },
      ],
      pageParams: [null, "c1"],
    });
    last().deliver(notify("task.deleted", { task_id: "b" }));
    assert.deepEqual(
      boardTasks(queryClient).map((t) => t.id),
      ["a"],
    );
  });

  test("session.message.added appends and session.message.updated replaces", () => {
    const { queryClient, last } = connected();
    queryClient.setQueryData(queryKeys.messages("s1"), onePage<Message>([]));
    last().deliver(notify("session.message.added", { message: makeMessage({ content: "hel" }) }));
    last().deliver(notify("session.message.updated", { message: makeMessage({ content: "hello world" }) }));
    const msgs = queryClient.getQueryData<Pages<Message>>(queryKeys.messages("s1"))?.pages[0]?.items;
    assert.deepEqual(
      msgs?.map((m) => m.content),
      ["hello world"],
    );
  });

  test("a message for a transcript nobody fetched does not create a partial list", () => {
    const { queryClient, last } = connected();
    last().deliver(notify("session.message.added", { message: makeMessage({ session_id: "s9" }) }));
    assert.equal(queryClient.getQueryData(queryKeys.messages("s9")), undefined);
  });

  test("session.updated replaces the session entry", () => {
    const { queryClient, last } = connected();
    const session = makeSession({ state: "FAILED", error: "agent exited" });
    last().deliver(notify("session.updated", { session }));
    assert.deepEqual(queryClient.getQueryData(queryKeys.session("s1")), session);
  });

  test("invalid frames are dropped and logged without touching the cache", () => {
    const { queryClient, logs, last } = connected();
    queryClient.setQueryData(queryKeys.tasks(), onePage<Task>([]));
    last().deliver("{not json");
    last().deliver({ type: "bogus", action: "x", payload: null });
    last().deliver(notify("task.updated", { task: { id: "t1" } }));
    last().deliver(notify("no.such.action", {}));
    assert.deepEqual(queryClient.getQueryData(queryKeys.tasks()), onePage<Task>([]));
    assert.equal(logs.length, 4, logs.join("\n"));
  });

  test("notification listeners hear validated frames after the cache; invalid ones never, a throwing one is logged", () => {
    const { client, queryClient, logs, last } = connected();
    const heard: string[] = [];
    client.onNotification(() => {
      throw new Error("boom");
    });
    const off = client.onNotification((n) => {
      if (n.action === "task.updated") heard.push(`task:${String(queryClient.getQueryData<Task>(queryKeys.task("t1"))?.id)}`);
      if (n.action === "notification") heard.push(`${n.payload.notification.kind}:${n.payload.notification.task_id}`);
    });
    last().deliver(notify("task.updated", { task: makeTask() }));
    last().deliver(
      notify("notification", {
        notification: {
          id: "n1",
          kind: "session.clarification_requested",
          task_id: "t1",
          session_id: "s1",
          title: "A task",
          body: "The agent has a question",
          pending_id: "p1",
          created_at: "2026-01-01T00:00:00.000Z",
        },
      }),
    );
    last().deliver(notify("notification", { notification: { kind: "nope" } }));
    assert.deepEqual(heard, ["task:t1", "session.clarification_requested:t1"]);
    assert.ok(logs.filter((l) => l.includes("listener failed")).length === 2, logs.join("\n"));
    off();
    last().deliver(notify("task.updated", { task: makeTask() }));
    assert.equal(heard.length, 2, "an unsubscribed listener hears nothing");
  });
});
