import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { CaptureError } from "./errors.js";
import { ASK_CASES, GENERATED_FILES, readRecordedInputs, WIRE_FILES } from "./inputs.js";

const FIXTURES = new URL("../../packages/agentctl/test/fixtures/bridge-0.101.0/", import.meta.url);
const readChecked = (file: string): unknown => JSON.parse(readFileSync(new URL(file, FIXTURES), "utf8"));

function withChange(file: string, change: (doc: Record<string, unknown>) => void): (f: string) => unknown {
  return (f) => {
    const doc = readChecked(f) as Record<string, unknown>;
    if (f === file) change(doc);
    return doc;
  };
}

function captureError(read: (f: string) => unknown, message: RegExp): void {
  assert.throws(
    () => readRecordedInputs(read),
    (err: unknown) => {
      assert.ok(err instanceof CaptureError, String(err));
      assert.match(err.message, message);
      return true;
    },
  );
}

describe("recorded inputs", () => {
  test("the generated and wire files are the eleven files of a bridge folder", () => {
    assert.equal(GENERATED_FILES.length, 9);
    assert.equal(new Set([...GENERATED_FILES, ...WIRE_FILES]).size, 12);
  });

  test("are read out of the checked-in fixtures: tool inputs, responses in file order, the refusal payload", () => {
    const inputs = readRecordedInputs(readChecked);
    const ask4 = readChecked("ask-4-mixed.json") as { input: unknown };
    assert.deepEqual(
      inputs.ask.map((a) => [a.file, a.toolCallId]),
      ASK_CASES.map((c) => [c.file, c.toolCallId]),
    );
    assert.deepEqual(inputs.ask[3]?.toolInput, ask4.input);
    const two = readChecked("apply-responses-two-questions.json") as { toolInput: unknown; results: Record<string, { response: unknown }> };
    assert.deepEqual(inputs.apply[0]?.toolInput, two.toolInput);
    assert.deepEqual(
      inputs.apply[0]?.responses,
      Object.entries(two.results).map(([k, v]) => [k, v.response]),
    );
    assert.equal(inputs.apply[0]?.responses[0]?.[0], "accept-selections");
    assert.deepEqual(
      inputs.mcpResponses.map(([k]) => k),
      ["0", "1", "2", "3", "4", "5"],
    );
    assert.deepEqual(inputs.refusal.payload, {
      originalModel: "Fable",
      fallbackModel: "Opus",
      apiRefusalCategory: "safety",
      guidanceText: "Some guidance text from the API.",
    });
    assert.equal(inputs.refusal.responses.length, 5);
  });

  test("a fixture without its input field names the file and the field", () => {
    captureError(
      withChange("ask-2-second-multiselect.json", (d) => delete d.input),
      /ask-2-second-multiselect.json: the input field "input" is missing/,
    );
    captureError(
      withChange("refusal-fallback.json", (d) => delete d.payload),
      /refusal-fallback.json: the input field "payload" is missing/,
    );
  });

  test("inputs of the wrong shape are refused with the file and what was expected", () => {
    captureError(
      withChange("ask-4-mixed.json", (d) => (d.input = { questions: "x" })),
      /ask-4-mixed.json: "input" must be an AskUserQuestion tool input/,
    );
    captureError(
      withChange("apply-responses-four-questions.json", (d) => (d.results = {})),
      /"results" must be a non-empty object/,
    );
    captureError(
      withChange("mcp-passthrough.json", (d) => (d.responseMapping = { "0": { response: { content: {} } } })),
      /mcp-passthrough.json: "responseMapping.0.response" must be an object with a string "action"/,
    );
    captureError(
      withChange("refusal-fallback.json", (d) => (d.payload = "x")),
      /"payload" must be an object/,
    );
    captureError(
      (f) => (f === "ask-1-no-toolcallid.json" ? [] : readChecked(f)),
      /ask-1-no-toolcallid.json: expected a JSON object at the top level/,
    );
  });
});
