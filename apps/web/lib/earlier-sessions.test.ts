import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { earlierSessions } from "./earlier-sessions";
import { makeSession } from "./test-fixtures";

describe("earlierSessions", () => {
  const first = makeSession({ id: "s1", created_at: "2026-01-01T00:00:00.000Z", state: "FAILED" });
  const second = makeSession({ id: "s2", created_at: "2026-01-02T00:00:00.000Z", state: "CANCELLED" });
  const latest = makeSession({ id: "s3", created_at: "2026-01-03T00:00:00.000Z" });

  test("every session but the latest, oldest first, numbered in the task's history", () => {
    assert.deepEqual(
      earlierSessions([latest, second, first], "s3").map(({ session, number }) => [session.id, number]),
      [
        ["s1", 1],
        ["s2", 2],
      ],
    );
  });

  test("a task with one session has no earlier ones", () => {
    assert.deepEqual(earlierSessions([latest], "s3"), []);
    assert.deepEqual(earlierSessions([], null), []);
  });
});
