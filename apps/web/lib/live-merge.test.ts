import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { LiveLedger, latest, liveMessages, liveTasks, mergeMessages, mergeTasks } from "./live-merge";
import { makeMessage, makeTask } from "./test-fixtures";

/** A promise with its resolver, so a test decides when the "fetch" finishes. */
function deferred<T>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

describe("LiveLedger", () => {
  test("returns what arrived while the fetch ran, not what arrived before", async () => {
    const ledger = new LiveLedger();
    const before = makeTask({ id: "before" });
    ledger.note({ kind: "task", value: before });
    const gate = deferred<string>();
    const tracked = ledger.track(() => gate.promise);
    const during = makeTask({ id: "during", title: "new" });
    ledger.note({ kind: "task", value: during });
    gate.resolve("fetched");
    const { value, live } = await tracked;
    assert.equal(value, "fetched");
    assert.deepEqual(liveTasks(live), [during]);
  });

  test("keeps only the last version of an entity", async () => {
    const ledger = new LiveLedger();
    const gate = deferred<null>();
    const tracked = ledger.track(() => gate.promise);
    ledger.note({ kind: "message", value: makeMessage({ content: "he" }) });
    ledger.note({ kind: "message", value: makeMessage({ content: "hello" }) });
    gate.resolve(null);
    const { live } = await tracked;
    assert.deepEqual(
      liveMessages(live, "s1").map((m) => m.content),
      ["hello"],
    );
    assert.deepEqual(liveMessages(live, "other"), []);
  });

  test("keeps nothing while no fetch runs, and forgets once fetches end", async () => {
    const ledger = new LiveLedger();
    ledger.note({ kind: "task", value: makeTask() });
    const first = await ledger.track(async () => 1);
    assert.deepEqual(first.live, []);
    const gate = deferred<null>();
    const tracked = ledger.track(() => gate.promise);
    ledger.note({ kind: "task", value: makeTask({ id: "x" }) });
    gate.resolve(null);
    await tracked;
    const after = await ledger.track(async () => 2);
    assert.deepEqual(after.live, [], "entries from a finished fetch must not leak into the next one");
  });

  test("a failing fetch still releases the ledger", async () => {
    const ledger = new LiveLedger();
    await assert.rejects(
      ledger.track(async () => Promise.reject(new Error("boom"))),
      /boom/,
    );
    ledger.note({ kind: "task", value: makeTask() });
    const next = await ledger.track(async () => 0);
    assert.deepEqual(next.live, []);
  });
});

describe("merges", () => {
  test("mergeTasks replaces by id, adds new ones, and keeps newest first", () => {
    const a = makeTask({ id: "a", created_at: "2026-01-01T00:00:01.000Z" });
    const b = makeTask({ id: "b", created_at: "2026-01-01T00:00:02.000Z" });
    const c = makeTask({ id: "c", created_at: "2026-01-01T00:00:03.000Z" });
    const merged = mergeTasks([b, a], [{ ...a, title: "renamed" }, c]);
    assert.deepEqual(
      merged.map((t) => t.id),
      ["c", "b", "a"],
    );
    assert.equal(merged[2]?.title, "renamed");
  });

  test("mergeMessages keeps creation order and arrival order for ties", () => {
    const m1 = makeMessage({ id: "m1", created_at: "2026-01-01T00:00:01.000Z" });
    const m2 = makeMessage({ id: "m2", created_at: "2026-01-01T00:00:01.000Z" });
    const m0 = makeMessage({ id: "m0", created_at: "2026-01-01T00:00:00.500Z" });
    const merged = mergeMessages([m1], [m2, m0, { ...m1, content: "longer" }]);
    assert.deepEqual(
      merged.map((m) => m.id),
      ["m0", "m1", "m2"],
    );
    assert.equal(merged[1]?.content, "longer");
  });

  test("merges do not mutate their inputs", () => {
    const list = [makeTask({ id: "a" })];
    mergeTasks(list, [makeTask({ id: "b" })]);
    assert.equal(list.length, 1);
  });

  test("latest prefers the last live version of the same entity", () => {
    const fetched = makeTask({ title: "old" });
    assert.equal(latest(fetched, []), fetched);
    assert.equal(latest(fetched, [makeTask({ id: "other" })]), fetched);
    assert.equal(latest(fetched, [makeTask({ title: "mid" }), makeTask({ title: "new" })]).title, "new");
  });
});
