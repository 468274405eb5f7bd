import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { SessionLogNotificationSchema, type SessionLogNotification } from "@kandev/protocol";
import { makeRedactor } from "./redaction.js";
import { LOG_MAX_LINE_CHARS, LogRing, SessionLogs } from "./session-logs.js";

const line = (text: string) => ({ at: "2026-01-01T00:00:00.000Z", text });

describe("LogRing", () => {
  test("keeps the last maxLines lines, oldest first", () => {
    const ring = new LogRing(3, 1_000_000);
    for (const t of ["a", "b", "c", "d", "e"]) ring.push(line(t));
    assert.deepEqual(
      ring.lines().map((l) => l.text),
      ["c", "d", "e"],
    );
  });

  test("keeps about maxBytes of text, but always the newest line", () => {
    const ring = new LogRing(100, 10);
    for (const t of ["aaaa", "bbbb", "cccc"]) ring.push(line(t));
    assert.deepEqual(
      ring.lines().map((l) => l.text),
      ["bbbb", "cccc"],
    );
    ring.push(line("x".repeat(50)));
    assert.deepEqual(
      ring.lines().map((l) => l.text),
      ["x".repeat(50)],
    );
  });

  test("lines() is a copy", () => {
    const ring = new LogRing();
    ring.push(line("a"));
    ring.lines()[0]!.text = "changed";
    assert.equal(ring.lines()[0]!.text, "a");
  });
});

describe("SessionLogs", () => {
  function logs(max: { maxLines?: number; maxSessions?: number } = {}) {
    const pushed: SessionLogNotification[] = [];
    const store = new SessionLogs({ publisher: { sessionLog: (p) => pushed.push(p) }, now: () => new Date("2026-01-02T03:04:05.000Z"), ...max });
    return { store, pushed };
  }

  test("append redacts with the session's secrets, keeps the line and pushes it to the session's subscribers", () => {
    const { store, pushed } = logs();
    store.configure("s1", makeRedactor(["secret-value-1"]));
    store.append("s1", "t1", "auth with secret-value-1 failed");
    const expected = { at: "2026-01-02T03:04:05.000Z", text: "auth with [redacted] failed" };
    assert.deepEqual(store.list("s1"), [expected]);
    assert.deepEqual(pushed, [{ session_id: "s1", task_id: "t1", lines: [expected] }]);
    SessionLogNotificationSchema.parse(pushed[0]);
    assert.deepEqual(store.list("other"), []);
  });

  test("one huge line is cut so it cannot flush the ring", () => {
    const { store } = logs();
    store.append("s1", "t1", "z".repeat(LOG_MAX_LINE_CHARS * 3));
    assert.equal(store.list("s1")[0]!.text.length, LOG_MAX_LINE_CHARS + 1);
  });

  test("sessions are bounded: the one written least recently is forgotten first", () => {
    const { store } = logs({ maxSessions: 2 });
    store.append("a", "t", "1");
    store.append("b", "t", "1");
    store.append("a", "t", "2");
    store.append("c", "t", "1");
    assert.deepEqual(store.list("b"), []);
    assert.deepEqual(
      store.list("a").map((l) => l.text),
      ["1", "2"],
    );
    assert.equal(store.list("c").length, 1);
  });

  test("configure again (a resume) keeps the lines and applies the new secrets to new lines", () => {
    const { store } = logs();
    store.configure("s1", makeRedactor(["first-secret"]));
    store.append("s1", "t", "first-secret second-secret");
    store.configure("s1", makeRedactor(["second-secret"]));
    store.append("s1", "t", "first-secret second-secret");
    assert.deepEqual(
      store.list("s1").map((l) => l.text),
      ["[redacted] second-secret", "first-secret [redacted]"],
    );
  });
});
