import { test, describe } from "node:test";
import assert from "node:assert/strict";
import type { SessionConfigOption } from "@kandev/protocol";
import { applyOpened, applyStateUpdate, configProblem, modeName, modeProblem, type StoredSessionState } from "./session-state.js";

const MODES = {
  current_mode_id: "default",
  available_modes: [
    { id: "default", name: "Ask" },
    { id: "plan", name: "Plan" },
  ],
};
const MODEL: SessionConfigOption = {
  id: "model",
  name: "Model",
  type: "select",
  current_value: "a",
  options: [
    { value: "a", name: "A" },
    { value: "b", name: "B" },
  ],
};
const FAST: SessionConfigOption = { id: "fast", name: "Fast", type: "boolean", current_value: false };
const empty: StoredSessionState = { modes: null, configOptions: null, availableCommands: [], usage: null, title: null };
const state: StoredSessionState = { ...empty, modes: MODES, configOptions: [MODEL, FAST] };

describe("applyStateUpdate", () => {
  test("a mode change sets the current mode and says from what to what; the same mode changes nothing", () => {
    assert.deepEqual(applyStateUpdate(state, { kind: "current_mode_update", current_mode_id: "plan" }), {
      patch: { modes: { ...MODES, current_mode_id: "plan" } },
      modeChanged: { from: "default", to: "plan" },
    });
    assert.deepEqual(applyStateUpdate(state, { kind: "current_mode_update", current_mode_id: "default" }), { patch: {} });
  });
  test("a mode the agent never listed (or with no modes known) is still recorded", () => {
    assert.deepEqual(applyStateUpdate(empty, { kind: "current_mode_update", current_mode_id: "x" }), {
      patch: { modes: { current_mode_id: "x", available_modes: [] } },
      modeChanged: { from: null, to: "x" },
    });
  });
  test("config options, commands and usage are replaced whole; an equal value writes nothing", () => {
    const options = [{ ...MODEL, current_value: "b" }];
    assert.deepEqual(applyStateUpdate(state, { kind: "config_option_update", config_options: options }).patch, { configOptions: options });
    assert.deepEqual(applyStateUpdate(state, { kind: "config_option_update", config_options: [MODEL, FAST] }).patch, {});
    const commands = [{ name: "review", description: "R", input_hint: "[p]" }];
    assert.deepEqual(applyStateUpdate(state, { kind: "available_commands_update", available_commands: commands }).patch, {
      availableCommands: commands,
    });
    assert.deepEqual(applyStateUpdate(state, { kind: "available_commands_update", available_commands: [] }).patch, {});
    const usage = { used: 1, size: 10, cost: { amount: 0.1, currency: "USD" } };
    assert.deepEqual(applyStateUpdate(state, { kind: "usage_update", usage }).patch, { usage });
    assert.deepEqual(applyStateUpdate({ ...state, usage }, { kind: "usage_update", usage: { ...usage } }).patch, {});
  });
  test("a title is set, cleared by null, and left alone when absent", () => {
    assert.deepEqual(applyStateUpdate(state, { kind: "session_info_update", title: "T" }).patch, { title: "T" });
    assert.deepEqual(applyStateUpdate({ ...state, title: "T" }, { kind: "session_info_update", title: null }).patch, { title: null });
    assert.deepEqual(applyStateUpdate({ ...state, title: "T" }, { kind: "session_info_update" }).patch, {});
  });
});

describe("applyOpened", () => {
  test("a new session replaces modes and options, clearing what it did not say", () => {
    assert.deepEqual(applyOpened(state, {}, "new"), { modes: null, configOptions: null });
    assert.deepEqual(applyOpened(empty, { modes: MODES, config_options: [MODEL] }, "new"), { modes: MODES, configOptions: [MODEL] });
  });
  test("a loaded session keeps what it did not say and takes what it did", () => {
    assert.deepEqual(applyOpened(state, {}, "load"), {});
    const modes = { ...MODES, current_mode_id: "plan" };
    assert.deepEqual(applyOpened(state, { modes }, "load"), { modes });
  });
});

describe("the operator's choices", () => {
  test("a mode must be one the agent offers", () => {
    assert.equal(modeProblem(MODES, "plan"), null);
    assert.match(modeProblem(MODES, "yolo") ?? "", /no mode yolo/);
    assert.match(modeProblem(null, "plan") ?? "", /no modes/);
    assert.equal(modeName(MODES, "plan"), "Plan");
    assert.equal(modeName(MODES, "gone"), "gone");
  });
  test("a config value must be one of a select's choices, or a boolean for a boolean option", () => {
    assert.equal(configProblem([MODEL, FAST], "model", "b"), null);
    assert.equal(configProblem([MODEL, FAST], "fast", true), null);
    assert.deepEqual(configProblem([MODEL], "effort", "high")?.path, "config_id");
    assert.deepEqual(configProblem(null, "model", "a")?.path, "config_id");
    assert.deepEqual(configProblem([MODEL], "model", "z")?.path, "value");
    assert.deepEqual(configProblem([MODEL], "model", true)?.path, "value");
    assert.deepEqual(configProblem([FAST], "fast", "on")?.path, "value");
    assert.deepEqual(configProblem([{ ...FAST, type: "slider" }], "fast", "1")?.path, "config_id");
  });
});
