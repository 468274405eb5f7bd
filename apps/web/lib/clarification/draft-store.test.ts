import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Question } from "@kandev/protocol";
import { emptyDraft } from "./answer-model";
import { clearDraft, DRAFT_MAX_AGE_MS, draftKey, pruneDrafts, readDraft, restoreDraft, writeDraft, type DraftStorage } from "./draft-store";

/** An in-memory Storage, as window.localStorage behaves. */
function memoryStorage(initial: Record<string, string> = {}): DraftStorage & { data: Map<string, string> } {
  const data = new Map(Object.entries(initial));
  return {
    data,
    getItem: (k) => data.get(k) ?? null,
    setItem: (k, v) => void data.set(k, v),
    removeItem: (k) => void data.delete(k),
    get length() {
      return data.size;
    },
    key: (i) => [...data.keys()][i] ?? null,
  };
}

/** A storage that throws on everything (blocked storage, a full quota). */
const brokenStorage: DraftStorage = {
  getItem() {
    throw new Error("SecurityError");
  },
  setItem() {
    throw new Error("QuotaExceededError");
  },
  removeItem() {
    throw new Error("SecurityError");
  },
  get length(): number {
    throw new Error("SecurityError");
  },
  key() {
    throw new Error("SecurityError");
  },
};

const colour: Question = {
  id: "question_0",
  kind: "single",
  prompt: "Colour?",
  options: [
    { id: "Red", label: "Red" },
    { id: "Blue", label: "Blue" },
  ],
  companion: { id: "question_0_custom" },
};
const platforms: Question = {
  id: "question_1",
  kind: "multi",
  prompt: "Platforms?",
  options: [
    { id: "Web", label: "Web" },
    { id: "iOS", label: "iOS" },
    { id: "Android", label: "Android" },
  ],
};

describe("read, write, clear", () => {
  test("the key is kandev.clarification-draft.<pending_id>", () => {
    assert.equal(draftKey("p-1"), "kandev.clarification-draft.p-1");
  });
  test("a written draft reads back with its step", () => {
    const storage = memoryStorage();
    const draft = { ...emptyDraft([colour, platforms]), question_0: { selected: ["Blue"], customText: "darker" } };
    writeDraft(storage, "p-1", 1, draft, 1_000);
    assert.deepEqual(readDraft(storage, "p-1"), { v: 1, step: 1, saved_at: 1_000, draft });
    assert.equal(readDraft(storage, "p-2"), null, "another clarification has no draft");
  });
  test("a draft with nothing answered is not kept, and clears one that was", () => {
    const storage = memoryStorage();
    writeDraft(storage, "p-1", 0, { question_0: { selected: ["Red"], customText: "" } }, 1);
    writeDraft(storage, "p-1", 0, emptyDraft([colour]), 2);
    assert.equal(storage.data.size, 0);
  });
  test("clear removes the draft", () => {
    const storage = memoryStorage();
    writeDraft(storage, "p-1", 0, { question_0: { selected: ["Red"], customText: "" } }, 1);
    clearDraft(storage, "p-1");
    assert.equal(readDraft(storage, "p-1"), null);
  });
  test("corrupt or foreign JSON is ignored", () => {
    for (const raw of [
      "{not json",
      "null",
      "[]",
      '"x"',
      '{"v":2,"step":0,"saved_at":1,"draft":{}}',
      '{"v":1,"step":-1,"saved_at":1,"draft":{}}',
      '{"v":1,"step":0,"saved_at":1,"draft":{"q":{"selected":[1],"customText":""}}}',
      '{"v":1,"step":0,"saved_at":1,"draft":{"q":{"selected":[]}}}',
    ]) {
      const storage = memoryStorage({ [draftKey("p-1")]: raw });
      assert.equal(readDraft(storage, "p-1"), null, raw);
    }
  });
  test("a storage that throws costs the draft, never an error", () => {
    assert.equal(readDraft(brokenStorage, "p-1"), null);
    assert.doesNotThrow(() => writeDraft(brokenStorage, "p-1", 0, { question_0: { selected: ["Red"], customText: "" } }, 1));
    assert.doesNotThrow(() => clearDraft(brokenStorage, "p-1"));
    assert.doesNotThrow(() => pruneDrafts(brokenStorage, 1));
  });
});

describe("restoring against the questions as they are", () => {
  const saved = (draft: Record<string, { selected: string[]; customText: string }>, step = 0) => ({ v: 1 as const, step, saved_at: 0, draft });

  test("nothing saved, nothing restored", () => {
    assert.equal(restoreDraft("elicitation", [colour], null), null);
  });
  test("unknown questions and options are dropped; multi-select keeps declaration order", () => {
    const r = restoreDraft(
      "elicitation",
      [colour, platforms],
      saved({ gone: { selected: ["x"], customText: "y" }, question_1: { selected: ["Android", "Mars", "Web"], customText: "" } }),
    );
    assert.deepEqual(r?.draft, { question_0: { selected: [], customText: "" }, question_1: { selected: ["Web", "Android"], customText: "" } });
  });
  test("a single-select keeps one option", () => {
    const r = restoreDraft("elicitation", [colour], saved({ question_0: { selected: ["Blue", "Red"], customText: "" } }));
    assert.deepEqual(r?.draft.question_0?.selected, ["Red"]);
  });
  test("text only where a text box is: a choice without a companion drops it", () => {
    const r = restoreDraft(
      "elicitation",
      [colour, platforms],
      saved({ question_0: { selected: ["Red"], customText: "note" }, question_1: { selected: [], customText: "lost" } }),
    );
    assert.deepEqual(r?.draft.question_0, { selected: ["Red"], customText: "note" });
    assert.deepEqual(r?.draft.question_1, { selected: [], customText: "" });
  });
  test("the kandev tool: typed text wins over a pick (they exclude each other, AC-57), and the cap holds", () => {
    const r = restoreDraft("kandev_tool", [colour], saved({ question_0: { selected: ["Red"], customText: "x".repeat(3_000) } }));
    assert.deepEqual(r?.draft.question_0, { selected: [], customText: "x".repeat(2_000) });
  });
  test("the step is kept within the questions", () => {
    assert.equal(restoreDraft("elicitation", [colour, platforms], saved({}, 1))?.step, 1);
    assert.equal(restoreDraft("elicitation", [colour, platforms], saved({}, 7))?.step, 1);
  });
});

describe("pruning", () => {
  test("drops old and unreadable drafts, keeps fresh ones and other keys", () => {
    const now = DRAFT_MAX_AGE_MS * 2;
    const storage = memoryStorage({ "other.key": "1", [draftKey("bad")]: "{" });
    writeDraft(storage, "old", 0, { q: { selected: ["a"], customText: "" } }, now - DRAFT_MAX_AGE_MS - 1);
    writeDraft(storage, "fresh", 0, { q: { selected: ["a"], customText: "" } }, now - 1_000);
    pruneDrafts(storage, now);
    assert.deepEqual([...storage.data.keys()].sort(), [draftKey("fresh"), "other.key"]);
  });
});
