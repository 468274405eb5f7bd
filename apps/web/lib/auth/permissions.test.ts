import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { AUTH_ACTIONS, can } from "./permissions";

describe("can", () => {
  test("an admin may do everything", () => {
    for (const action of AUTH_ACTIONS) assert.equal(can("admin", action), true, action);
  });

  test("an operator may not touch what runs on the host: profiles, repositories, flags, users, others' tokens", () => {
    assert.equal(can("operator", "manage_agent_profiles"), false);
    assert.equal(can("operator", "manage_repositories"), false);
    assert.equal(can("operator", "manage_runtime_flags"), false);
    assert.equal(can("operator", "manage_users"), false);
    assert.equal(can("operator", "manage_others_tokens"), false);
  });

  test("an operator works on tasks and keeps their own tokens", () => {
    assert.equal(can("operator", "work_on_tasks"), true);
    assert.equal(can("operator", "manage_own_tokens"), true);
  });

  test("every action has an answer for every role (the list is complete)", () => {
    for (const role of ["admin", "operator"] as const) for (const action of AUTH_ACTIONS) assert.equal(typeof can(role, action), "boolean");
    assert.equal(new Set(AUTH_ACTIONS).size, 7);
  });
});
