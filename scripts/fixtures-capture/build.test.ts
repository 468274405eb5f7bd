import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { buildFixtures, BUILDERS_BY_FILE, missingExports, serializeFixture, type BridgeModule } from "./build.js";
import { GENERATED_FILES, readRecordedInputs, type RecordedInputs } from "./inputs.js";
import { BAD_REFUSAL_PAYLOAD, EXTRACT_INPUTS, MCP_REQUESTS, SESSION_ID } from "./probe-inputs.js";

const FIXTURES = new URL("../../packages/agentctl/test/fixtures/bridge-0.101.0/", import.meta.url);
const INPUTS: RecordedInputs = readRecordedInputs((file) => JSON.parse(readFileSync(new URL(file, FIXTURES), "utf8")));

/** A bridge whose builders record their arguments and answer with them, tagged by builder. */
function echoBridge(): { bridge: Record<string, unknown>; calls: Array<[string, unknown[]]> } {
  const calls: Array<[string, unknown[]]> = [];
  const echo =
    (name: string) =>
    (...args: unknown[]) => {
      calls.push([name, args]);
      return { by: name, args };
    };
  const bridge: Record<string, unknown> = { REFUSAL_FALLBACK_DIALOG_KIND: "refusal_fallback_prompt" };
  for (const name of new Set(Object.values(BUILDERS_BY_FILE).flat())) if (name !== "REFUSAL_FALLBACK_DIALOG_KIND") bridge[name] = echo(name);
  bridge.extractAskUserQuestions = (input: { questions?: unknown }) => {
    calls.push(["extractAskUserQuestions", [input]]);
    return Array.isArray(input.questions) ? input.questions : null;
  };
  return { bridge, calls };
}

function built(bridge: BridgeModule, file: string): Record<string, unknown> {
  const outcome = buildFixtures(bridge, INPUTS).find((o) => o.file === file);
  assert.ok(outcome?.ok, JSON.stringify(outcome));
  return JSON.parse(outcome.text) as Record<string, unknown>;
}

describe("building fixtures from a bridge module", () => {
  test("every generated file is built, in order, as 2-space JSON with a trailing newline", () => {
    const outcomes = buildFixtures(echoBridge().bridge, INPUTS);
    assert.deepEqual(
      outcomes.map((o) => [o.file, o.ok]),
      GENERATED_FILES.map((f) => [f, true]),
    );
    assert.equal(serializeFixture({ a: [1], b: null }), '{\n  "a": [\n    1\n  ],\n  "b": null\n}\n');
  });

  test("ask-*: the tool input, what extract made of it, and the request built for sess-1 and the case's toolCallId", () => {
    const { bridge } = echoBridge();
    const ask4 = built(bridge, "ask-4-mixed.json");
    const input = INPUTS.ask[3]?.toolInput as { questions: unknown[] };
    assert.deepEqual(Object.keys(ask4), ["input", "extracted", "createRequest"]);
    assert.deepEqual(ask4.extracted, input.questions);
    assert.deepEqual(ask4.createRequest, { by: "askUserQuestionsToCreateRequest", args: [input.questions, SESSION_ID, "tool-44"] });
    // No toolCallId: the builder is called with undefined, which the echo drops from JSON as null.
    assert.deepEqual((built(bridge, "ask-1-no-toolcallid.json").createRequest as { args: unknown[] }).args.slice(1), [SESSION_ID, null]);
  });

  test("apply-responses-*: each recorded response folded into the tool input with the extracted questions", () => {
    const apply = built(echoBridge().bridge, "apply-responses-two-questions.json");
    const { toolInput, responses } = INPUTS.apply[0]!;
    assert.deepEqual(apply.toolInput, toolInput);
    const results = apply.results as Record<string, { response: unknown; result: { args: unknown[] } }>;
    assert.deepEqual(
      Object.keys(results),
      responses.map(([name]) => name),
    );
    for (const [name, response] of responses) {
      assert.deepEqual(results[name]?.response, response);
      assert.deepEqual(results[name]?.result.args, [response, toolInput, (toolInput as { questions: unknown }).questions]);
    }
  });

  test("mcp-passthrough, refusal-fallback and extract-gatekeeping use the probe inputs and the recorded ones", () => {
    const { bridge } = echoBridge();
    const mcp = built(bridge, "mcp-passthrough.json");
    assert.deepEqual(Object.keys(mcp), [...Object.keys(MCP_REQUESTS), "responseMapping"]);
    assert.deepEqual(mcp.urlWithUrl, { by: "mcpElicitationToCreateRequest", args: [MCP_REQUESTS.urlWithUrl, SESSION_ID] });
    const mapping = mcp.responseMapping as Record<string, { response: unknown; elicitResult: { args: unknown[] } }>;
    assert.deepEqual(mapping["2"]?.elicitResult.args, [INPUTS.mcpResponses[2]?.[1]]);

    const refusal = built(bridge, "refusal-fallback.json");
    assert.deepEqual(Object.keys(refusal), [
      "REFUSAL_FALLBACK_DIALOG_KIND",
      "payload",
      "extracted",
      "createRequest",
      "noCategoryNoGuidance",
      "badPayload",
      "results",
    ]);
    assert.equal(refusal.REFUSAL_FALLBACK_DIALOG_KIND, "refusal_fallback_prompt");
    assert.deepEqual(refusal.extracted, { by: "extractRefusalFallbackPrompt", args: [INPUTS.refusal.payload] });
    const bare = (refusal.noCategoryNoGuidance as { args: [{ args: unknown[] }, string] }).args;
    assert.deepEqual(bare[0].args, [{ originalModel: "Fable", fallbackModel: "Opus" }], "the recorded payload without its optional parts");
    assert.deepEqual(refusal.badPayload, { by: "extractRefusalFallbackPrompt", args: [BAD_REFUSAL_PAYLOAD] });

    const extract = built(bridge, "extract-gatekeeping.json");
    assert.deepEqual(Object.keys(extract), Object.keys(EXTRACT_INPUTS));
    assert.equal(extract.nonArray, null);
  });

  test("a builder that mutates its arguments cannot change the next case or the recorded inputs", () => {
    const { bridge } = echoBridge();
    const before = structuredClone(INPUTS);
    bridge.applyAskElicitationResponse = (response: Record<string, unknown>, toolInput: Record<string, unknown>) => {
      const seen = JSON.stringify(toolInput);
      response.action = "mutated";
      toolInput.questions = [];
      return seen;
    };
    const apply = built(bridge, "apply-responses-four-questions.json");
    const results = Object.values(apply.results as Record<string, { response: { action: string }; result: string }>);
    assert.ok(results.every((r) => r.response.action !== "mutated" && r.result === JSON.stringify(INPUTS.apply[1]?.toolInput)));
    assert.deepEqual(INPUTS, before);
  });

  test("a missing export fails the files that need it, naming it and what the module has; the others still build", () => {
    const { bridge } = echoBridge();
    delete bridge.applyAskElicitationResponse;
    bridge.applyAskUserQuestionResponse = () => null;
    const outcomes = buildFixtures(bridge, INPUTS);
    const failed = outcomes.filter((o) => !o.ok);
    assert.deepEqual(
      failed.map((o) => o.file),
      ["apply-responses-two-questions.json", "apply-responses-four-questions.json"],
    );
    for (const f of failed) {
      assert.ok(!f.ok);
      assert.equal(f.reason, "missing_builder");
      assert.match(f.message, /has no export applyAskElicitationResponse \(it exports: .*applyAskUserQuestionResponse/);
    }
    assert.equal(outcomes.filter((o) => o.ok).length, GENERATED_FILES.length - 2);
  });

  test("the dialog kind must be a string and the builders functions", () => {
    assert.deepEqual(
      missingExports({ REFUSAL_FALLBACK_DIALOG_KIND: () => "x", extractRefusalFallbackPrompt: "x" }, BUILDERS_BY_FILE["refusal-fallback.json"]),
      ["REFUSAL_FALLBACK_DIALOG_KIND", "extractRefusalFallbackPrompt", "refusalFallbackToCreateRequest", "refusalFallbackResultFromResponse"],
    );
  });

  test("a builder that throws, or returns what JSON cannot hold, fails its file with the builder's name", () => {
    const { bridge } = echoBridge();
    bridge.refusalFallbackToCreateRequest = () => {
      throw new Error("boom");
    };
    bridge.mcpElicitationToCreateRequest = () => ({ n: 1n });
    const byFile = new Map(buildFixtures(bridge, INPUTS).map((o) => [o.file, o]));
    const refusal = byFile.get("refusal-fallback.json");
    assert.ok(refusal && !refusal.ok);
    assert.deepEqual([refusal.reason, refusal.message], ["builder_threw", "refusalFallbackToCreateRequest threw: boom"]);
    const mcp = byFile.get("mcp-passthrough.json");
    assert.ok(mcp && !mcp.ok);
    assert.equal(mcp.reason, "builder_threw");
    assert.match(mcp.message, /a builder result is not JSON: .*BigInt/);
    assert.ok(byFile.get("ask-4-mixed.json")?.ok);
  });
});
