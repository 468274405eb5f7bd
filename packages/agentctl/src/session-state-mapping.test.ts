import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { OpenedSessionStateSchema, SessionUpdateSchema } from "@kandev/protocol";
import { mapConfigOptions, mapModes, MAX_STATE_ITEMS } from "./session-state-mapping.js";
import { openedState } from "./session-settings.js";
import { mapSessionUpdate } from "./update-mapping.js";
import { BRIDGE_VERSIONS, wireFrames } from "../test/bridge-session.js";

type Update = Parameters<typeof mapSessionUpdate>[0];
const loose = (u: unknown) => u as Update;

describe("session state updates", () => {
  test("current_mode_update carries the mode id", () => {
    assert.deepEqual(mapSessionUpdate({ sessionUpdate: "current_mode_update", currentModeId: "plan" }), {
      kind: "current_mode_update",
      current_mode_id: "plan",
    });
  });

  test("config_option_update carries every option, select and boolean, grouped options flattened", () => {
    const u = mapSessionUpdate({
      sessionUpdate: "config_option_update",
      configOptions: [
        {
          id: "model",
          name: "Model",
          category: "model",
          type: "select",
          currentValue: "b",
          options: [
            { group: "g1", name: "Fast", options: [{ value: "a", name: "A", description: "first" }] },
            { group: "g2", name: "Smart", options: [{ value: "b", name: "B" }] },
          ],
        },
        { id: "fast", name: "Fast mode", type: "boolean", currentValue: true, description: "speed" },
      ],
    });
    assert.deepEqual(u, {
      kind: "config_option_update",
      config_options: [
        {
          id: "model",
          name: "Model",
          category: "model",
          type: "select",
          current_value: "b",
          options: [
            { value: "a", name: "A", description: "first" },
            { value: "b", name: "B" },
          ],
        },
        { id: "fast", name: "Fast mode", description: "speed", type: "boolean", current_value: true },
      ],
    });
  });

  test("available_commands_update keeps name, description and the input hint", () => {
    const u = mapSessionUpdate({
      sessionUpdate: "available_commands_update",
      availableCommands: [
        { name: "review", description: "Review", input: { hint: "[path]" } },
        { name: "init", description: "Init", input: null },
      ],
    });
    assert.deepEqual(u, {
      kind: "available_commands_update",
      available_commands: [
        { name: "review", description: "Review", input_hint: "[path]" },
        { name: "init", description: "Init" },
      ],
    });
  });

  test("usage_update keeps used, size and cost; _meta is not carried", () => {
    assert.deepEqual(mapSessionUpdate({ sessionUpdate: "usage_update", used: 30, size: 1000, _meta: { x: 1 } }), {
      kind: "usage_update",
      usage: { used: 30, size: 1000 },
    });
    assert.deepEqual(mapSessionUpdate({ sessionUpdate: "usage_update", used: 30, size: 1000, cost: { amount: 0.5, currency: "USD" } }), {
      kind: "usage_update",
      usage: { used: 30, size: 1000, cost: { amount: 0.5, currency: "USD" } },
    });
  });

  test("session_info_update: a title, a cleared title (null), or no change (absent)", () => {
    assert.deepEqual(mapSessionUpdate({ sessionUpdate: "session_info_update", title: "Fix it", updatedAt: "2026-01-01T00:00:00Z" }), {
      kind: "session_info_update",
      title: "Fix it",
    });
    assert.deepEqual(mapSessionUpdate({ sessionUpdate: "session_info_update", title: null }), { kind: "session_info_update", title: null });
    assert.deepEqual(mapSessionUpdate({ sessionUpdate: "session_info_update", updatedAt: "x" }), { kind: "session_info_update" });
  });

  test("an update of a known kind that cannot be read is kept by name, never a crash", () => {
    for (const bad of [
      { sessionUpdate: "usage_update", used: "lots", size: 1 },
      { sessionUpdate: "current_mode_update" },
      { sessionUpdate: "config_option_update", configOptions: "x" },
      { sessionUpdate: "available_commands_update" },
      { sessionUpdate: "session_info_update", title: 7 },
    ]) {
      assert.deepEqual(mapSessionUpdate(loose(bad)), { kind: "other", session_update: bad.sessionUpdate });
    }
  });

  test("unknown kinds are kept by name", () => {
    assert.deepEqual(mapSessionUpdate(loose({ sessionUpdate: "session_status_update", status: "idle" })), {
      kind: "other",
      session_update: "session_status_update",
    });
  });

  test("malformed entries inside a list are dropped, the rest kept; lists are bounded", () => {
    const commands = [
      { name: "" },
      5,
      { name: "ok", description: 3 },
      ...Array.from({ length: MAX_STATE_ITEMS + 10 }, (_, i) => ({ name: `c${i}`, description: "" })),
    ];
    const u = mapSessionUpdate(loose({ sessionUpdate: "available_commands_update", availableCommands: commands }));
    assert.ok(u.kind === "available_commands_update");
    assert.deepEqual(u.available_commands[0], { name: "ok", description: "" });
    assert.ok(u.available_commands.length <= MAX_STATE_ITEMS);
    const opts = mapConfigOptions(
      loose([
        { id: "x", type: "select" },
        { id: "m", name: "M", type: "select", currentValue: "a", options: [{ value: "a" }] },
      ]) as never,
    );
    assert.deepEqual(opts, [{ id: "m", name: "M", type: "select", current_value: "a", options: [{ value: "a", name: "a" }] }]);
  });

  test("modes: absent or unreadable is null", () => {
    assert.equal(mapModes(undefined), null);
    assert.equal(mapModes(loose({ availableModes: [] }) as never), null);
    assert.deepEqual(mapModes({ currentModeId: "a", availableModes: [{ id: "a", name: "A", description: null }] }), {
      current_mode_id: "a",
      available_modes: [{ id: "a", name: "A" }],
    });
  });
});

for (const version of BRIDGE_VERSIONS) {
  describe(`the Claude bridge ${version}'s session state`, () => {
    test("session/new's modes and config options map and satisfy the protocol", () => {
      const answer = wireFrames(version).find((f) => f.dir === "agent->client" && f.msg.id === 1)?.msg.result;
      const state = OpenedSessionStateSchema.parse(openedState(answer));
      assert.equal(state.modes?.current_mode_id, "default");
      assert.ok(state.modes?.available_modes.some((m) => m.id === "plan"));
      const model = state.config_options?.find((o) => o.id === "model");
      assert.equal(model?.category, "model");
      assert.equal(model?.current_value, "default");
      assert.ok((model?.options?.length ?? 0) > 1);
    });

    test("every state update it sent maps to its own kind and satisfies the protocol", () => {
      const kinds = new Set<string>();
      for (const f of wireFrames(version)) {
        if (f.msg.method !== "session/update") continue;
        const update = (f.msg.params as { update: Update }).update;
        const mapped = SessionUpdateSchema.parse(mapSessionUpdate(update));
        if (
          ["usage_update", "available_commands_update", "config_option_update", "current_mode_update", "session_info_update"].includes(
            update.sessionUpdate,
          )
        ) {
          assert.equal(mapped.kind, update.sessionUpdate);
          kinds.add(mapped.kind);
        }
      }
      assert.ok(
        ["usage_update", "available_commands_update", "config_option_update", "current_mode_update"].every((k) => kinds.has(k)),
        [...kinds].join(),
      );
    });
  });
}
