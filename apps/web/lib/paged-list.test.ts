import { describe, test } from "node:test";
import assert from "node:assert/strict";
import type { Message, Task } from "@kandev/protocol";
import { mergeMessages, mergeTasks } from "./live-merge";
import { flattenPages, flattenPagesOldestFirst, nextCursor, type Page, type Pages, removePaged, upsertPaged, withLive } from "./paged-list";
import { makeMessage, makeTask } from "./test-fixtures";

const at = (n: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString();
const task = (n: number, over: Partial<Task> = {}) => makeTask({ id: `t${n}`, title: `task ${n}`, created_at: at(n), ...over });
const message = (n: number, over: Partial<Message> = {}) => makeMessage({ id: `m${n}`, content: `message ${n}`, created_at: at(n), ...over });

/** The board: t9..t6 on the first page, t5..t3 on the second, more after (cursor "c2"). */
function board(): Pages<Task> {
  return {
    pages: [
      { items: [task(9), task(8), task(7), task(6)], next: "c1" },
      { items: [task(5), task(4), task(3)], next: "c2" },
    ],
    pageParams: [null, "c1"],
  };
}

/** A transcript's last two pages: m7..m9 (the end), then m4..m6; earlier ones not loaded. */
function transcript(): Pages<Message> {
  return {
    pages: [
      { items: [message(7), message(8), message(9)], next: "c1" },
      { items: [message(4), message(5), message(6)], next: "c2" },
    ],
    pageParams: [null, "c1"],
  };
}

const ids = (items: readonly { id: string }[]) => items.map((x) => x.id);

describe("upsertPaged on the board (newest first)", () => {
  test("a new task joins the top of the first page", () => {
    const out = upsertPaged(board(), [task(10)], mergeTasks);
    assert.deepEqual(ids(flattenPages(out)), ["t10", "t9", "t8", "t7", "t6", "t5", "t4", "t3"]);
    assert.deepEqual(ids(out.pages[0]?.items ?? []), ["t10", "t9", "t8", "t7", "t6"]);
  });

  test("an updated task changes in place, on whichever page holds it", () => {
    const out = upsertPaged(board(), [task(4, { title: "renamed" }), task(8, { state: "REVIEW" })], mergeTasks);
    assert.deepEqual(ids(flattenPages(out)), ["t9", "t8", "t7", "t6", "t5", "t4", "t3"]);
    assert.equal(out.pages[1]?.items[1]?.title, "renamed");
    assert.equal(out.pages[0]?.items[1]?.state, "REVIEW");
    assert.deepEqual(out.pageParams, [null, "c1"]);
  });

  test("a task older than every loaded one waits for its own page instead of showing twice", () => {
    const out = upsertPaged(board(), [task(1)], mergeTasks);
    assert.deepEqual(ids(flattenPages(out)), ["t9", "t8", "t7", "t6", "t5", "t4", "t3"]);
  });

  test("on a fully loaded board every task has a place, the oldest at the end", () => {
    const data = board();
    data.pages[1] = { ...(data.pages[1] as Page<Task>), next: null };
    assert.deepEqual(ids(flattenPages(upsertPaged(data, [task(1)], mergeTasks))).at(-1), "t1");
  });

  test("a task between two pages joins the later one, where the list has room for it", () => {
    const data = board();
    data.pages[0] = { items: [task(9), task(8)], next: "c1" };
    const out = upsertPaged(data, [task(7, { id: "between" })], mergeTasks);
    assert.deepEqual(ids(out.pages[1]?.items ?? []), ["between", "t5", "t4", "t3"]);
  });

  test("the first task of an empty board lands on its only page", () => {
    const empty: Pages<Task> = { pages: [{ items: [], next: null }], pageParams: [null] };
    assert.deepEqual(ids(flattenPages(upsertPaged(empty, [task(1)], mergeTasks))), ["t1"]);
  });

  test("no updates leaves the data as it was (react-query sees no change)", () => {
    const data = board();
    assert.equal(upsertPaged(data, [], mergeTasks), data);
  });
});

describe("removePaged", () => {
  test("takes the item off whichever page holds it", () => {
    assert.deepEqual(ids(flattenPages(removePaged(board(), "t4"))), ["t9", "t8", "t7", "t6", "t5", "t3"]);
  });

  test("an item not loaded leaves the data as it was", () => {
    const data = board();
    assert.equal(removePaged(data, "t1"), data);
  });
});

describe("upsertPaged on a transcript (pages walk back from its end)", () => {
  test("reads oldest first across pages", () => {
    assert.deepEqual(ids(flattenPagesOldestFirst(transcript())), ["m4", "m5", "m6", "m7", "m8", "m9"]);
  });

  test("a new message appends to the end", () => {
    const out = upsertPaged(transcript(), [message(10)], mergeMessages);
    assert.deepEqual(ids(flattenPagesOldestFirst(out)), ["m4", "m5", "m6", "m7", "m8", "m9", "m10"]);
  });

  test("an update to an earlier page's message changes it in place", () => {
    const out = upsertPaged(transcript(), [message(5, { content: "edited" })], mergeMessages);
    assert.deepEqual(ids(flattenPagesOldestFirst(out)), ["m4", "m5", "m6", "m7", "m8", "m9"]);
    assert.equal(out.pages[1]?.items[1]?.content, "edited");
  });

  test("an update to a message not loaded yet is left for its page", () => {
    const out = upsertPaged(transcript(), [message(2, { content: "edited" })], mergeMessages);
    assert.deepEqual(ids(flattenPagesOldestFirst(out)), ["m4", "m5", "m6", "m7", "m8", "m9"]);
  });
});

describe("withLive: a fetched page with the updates that arrived while it was fetched", () => {
  const page: Page<Task> = { items: [task(5), task(4)], next: "c" };

  test("the first page takes new tasks and newer versions", () => {
    const out = withLive(page, [task(6), task(4, { title: "renamed" })], true, mergeTasks);
    assert.deepEqual(ids(out.items), ["t6", "t5", "t4"]);
    assert.equal(out.items[2]?.title, "renamed");
    assert.equal(out.next, "c");
  });

  test("the first page leaves out an older task, whose own page brings it", () => {
    assert.deepEqual(ids(withLive(page, [task(1)], true, mergeTasks).items), ["t5", "t4"]);
  });

  test("a later page takes only newer versions of its own items, never the newest tasks", () => {
    const out = withLive(page, [task(9), task(5, { title: "renamed" })], false, mergeTasks);
    assert.deepEqual(ids(out.items), ["t5", "t4"]);
    assert.equal(out.items[0]?.title, "renamed");
  });

  test("nothing live returns the page itself", () => {
    assert.equal(withLive(page, [], true, mergeTasks), page);
  });
});

describe("flattening", () => {
  test("an item on two pages shows once, where it came first", () => {
    const data: Pages<Task> = {
      pages: [
        { items: [task(3), task(2)], next: "c" },
        { items: [task(2), task(1)], next: null },
      ],
      pageParams: [null, "c"],
    };
    assert.deepEqual(ids(flattenPages(data)), ["t3", "t2", "t1"]);
  });

  test("nextCursor ends the list on a page without one", () => {
    assert.equal(nextCursor({ items: [], next: "c" }), "c");
    assert.equal(nextCursor({ items: [], next: null }), undefined);
  });
});
