import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import * as frames from "./elicitation-frames.js";

/** The fixtures live with agentctl's tests (the consumer that checks the mapping against them). */
function fixture(relative: string): Record<string, unknown> {
  const url = new URL(`../../../../agentctl/test/fixtures/${relative}`, import.meta.url);
  return JSON.parse(readFileSync(url, "utf8")) as Record<string, unknown>;
}
function wireParams(relative: string): unknown {
  const wire = fixture(relative) as { agentToClientFrames: Array<{ method: string; params: unknown }> };
  const found = wire.agentToClientFrames.filter((f) => f.method === "elicitation/create");
  assert.equal(found.length, 1);
  return found[0]?.params;
}

test("the mock agent's elicitation frames equal the bridge fixtures they were copied from", () => {
  assert.deepEqual(frames.ASK_USER_QUESTION_0_65, wireParams("bridge-0.65.0/wire-ask-user-question.json"));
  assert.deepEqual(frames.ASK_USER_QUESTION_0_101, wireParams("bridge-0.101.0/wire-ask-user-question.json"));
  assert.deepEqual(frames.MCP_API_KEY, wireParams("bridge-0.65.0/wire-mcp-passthrough.json"));
  assert.deepEqual(frames.REFUSAL_FALLBACK, fixture("bridge-0.101.0/refusal-fallback.json").createRequest);
  const mcp = fixture("bridge-0.65.0/mcp-passthrough.json");
  assert.deepEqual(frames.URL_MODE, mcp.urlWithUrl);
  assert.deepEqual(frames.EMPTY_SCHEMA, mcp.formNoSchema);
});
