import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { filterTasks } from "./board-filter";
import { makeTask } from "./test-fixtures";

const tasks = [
  makeTask({ id: "a", title: "Fix the login test", state: "REVIEW", agent_profile_id: "mock" }),
  makeTask({ id: "b", title: "Übersetzung prüfen", state: "IN_PROGRESS", agent_profile_id: "claude" }),
  makeTask({ id: "c", title: "Write docs", state: "COMPLETED", agent_profile_id: "claude" }),
];
const facts = {
  stateLabel: (t: (typeof tasks)[number]) =>
    ({ REVIEW: "Ready for review", IN_PROGRESS: "Running", COMPLETED: "Completed" })[t.state as "REVIEW"] ?? t.state,
  agentName: (id: string) => (id === "claude" ? "Claude (bridge)" : "Mock agent"),
};
const ids = (q: string) => filterTasks(tasks, q, facts).map((t) => t.id);

describe("filterTasks", () => {
  test("an empty query keeps every task", () => {
    assert.deepEqual(ids("  "), ["a", "b", "c"]);
  });
  test("matches the title, ignoring case and accents", () => {
    assert.deepEqual(ids("LOGIN"), ["a"]);
    assert.deepEqual(ids("ubersetzung"), ["b"]);
  });
  test("matches the state as shown or by its API name", () => {
    assert.deepEqual(ids("review"), ["a"]);
    assert.deepEqual(ids("in progress"), ["b"]);
    assert.deepEqual(ids("completed"), ["c"]);
  });
  test("matches the agent's name or profile id; every word must match", () => {
    assert.deepEqual(ids("claude"), ["b", "c"]);
    assert.deepEqual(ids("bridge docs"), ["c"]);
    assert.deepEqual(ids("mock docs"), []);
  });
});
