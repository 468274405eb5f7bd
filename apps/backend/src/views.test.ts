import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { SECRET_MASK } from "@kandev/protocol";
import { mergeEnv } from "./http/agent-routes.js";
import { maskEnv, toProfile } from "./views.js";

describe("profile env is write-only", () => {
  test("every value is masked, names kept", () => {
    assert.equal(SECRET_MASK, "********");
    assert.deepEqual(maskEnv({ ANTHROPIC_API_KEY: "sk-ant-x", DEBUG: "1" }), { ANTHROPIC_API_KEY: "********", DEBUG: "********" });
    const view = toProfile(
      { id: "p", name: "P", command: ["x"], env: { K: "secret" }, cwd: null, agentId: null, builtin: false, createdAt: "t" },
      [],
    );
    assert.deepEqual(view.env, { K: "********" });
    assert.doesNotMatch(JSON.stringify(view), /secret/);
  });

  test("merge: a value sets, null removes, the mask or a key left out keeps; a mask for a new name is refused", () => {
    const current = { A: "1", B: "2", C: "3" };
    assert.deepEqual(mergeEnv(current, { A: SECRET_MASK, B: null, D: "4" }), { A: "1", C: "3", D: "4" });
    assert.throws(() => mergeEnv(current, { E: SECRET_MASK }), /E has no value to keep/);
    assert.equal(mergeEnv({ A: "1" }, { A: null }), null);
  });
});
