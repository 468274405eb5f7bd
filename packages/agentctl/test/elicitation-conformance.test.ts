// Conformance of the elicitation mapping against every fixture of every captured bridge version
// (each test/fixtures/bridge-<version>/ folder, see `npm run fixtures:capture`): requests
// the real bridge builds map to the questions its tool input asked, and the content we build for an
// operator's answer is what (or bridge-equivalent to what) the bridge was fed in the fixtures.
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import * as acp from "@agentclientprotocol/sdk";
import type { Answer, ClarificationAnswer, Question } from "@kandev/protocol";
import { QuestionSchema } from "@kandev/protocol";
import { buildResponse, type ElicitationResponse } from "../src/elicitation/answers.js";
import { mapRaw, questionsOf } from "./elicitation-helpers.js";
import {
  BRIDGE_VERSIONS,
  compareBridgeVersions,
  FIXTURE_SCHEMAS,
  loadFixture,
  readFixtureJson,
  wireElicitation,
  type AskQuestion,
  type BridgeVersion,
  type FixtureFormRequest,
  type FixtureName,
  type FixtureResponse,
} from "./elicitation-fixtures.js";

const ASK_FILES = ["ask-1-no-toolcallid.json", "ask-1-single-select-preview.json", "ask-2-second-multiselect.json", "ask-4-mixed.json"] as const;

function a(question_id: string, selected_options: string[] = [], custom_text?: string): Answer {
  return custom_text === undefined ? { question_id, selected_options } : { question_id, selected_options, custom_text };
}

/**
 * The questions an AskUserQuestion tool input asks, derived from the tool input alone (not from the
 * request the bridge built), as the independent oracle for the mapping. The companion's labels are
 * the bridge's own wording, which differs by version, so they are read from the request.
 */
function questionsFromToolInput(questions: readonly AskQuestion[], request: FixtureFormRequest): Question[] {
  return questions.map((q, i): Question => {
    const companion = request.requestedSchema.properties?.[`question_${i}_custom`];
    assert.ok(companion && "title" in companion && "description" in companion, `question_${i}_custom exists`);
    return {
      id: `question_${i}`,
      kind: q.multiSelect === true ? "multi" : "single",
      title: q.header,
      prompt: q.question,
      options: q.options.map((o) => ({
        id: o.label,
        label: o.label,
        ...(o.description === undefined || o.description === "" ? {} : { description: o.description }),
      })),
      companion: { id: `question_${i}_custom`, title: companion.title, description: companion.description },
    };
  });
}

/**
 * What the bridge does with `content` before using it (Verified inputs C, executed in the fixtures):
 * it trims text, and an empty or whitespace-only text or an empty selection counts as no answer.
 * Two contents equal after this are turned into the same answered result.
 */
function bridgeEquivalent(content: Record<string, unknown> | null | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(content ?? {})) {
    if (typeof value === "string" && value.trim().length > 0) out[key] = value.trim();
    else if (Array.isArray(value) && value.length > 0) out[key] = value;
  }
  return out;
}

function assertEquivalent(ours: ElicitationResponse, theirs: FixtureResponse, label: string): void {
  assert.equal(ours.action, theirs.action, label);
  if (ours.action !== "accept") return;
  // What we send is already in normal form: no blank text, no empty arrays, trimmed.
  assert.deepEqual(bridgeEquivalent(ours.content), ours.content, `${label}: our content is normalised`);
  assert.deepEqual(ours.content, bridgeEquivalent(theirs.content), label);
}

/** The operator gesture behind each apply-responses fixture case, or why no gesture produces it. */
type Intended = ClarificationAnswer | "turn_cancelled" | "never_sent";
const INTENDED: Record<string, Intended> = {
  "accept-selections": { answers: [a("question_0", ["Postgres"]), a("question_1", ["prod", "dev"])] },
  "accept-only-first": { answers: [a("question_0", ["SQLite"])] },
  decline: { answers: [], rejected: true },
  cancel: "turn_cancelled",
  // A custom action and non-string values are not something agentctl ever sends (property test).
  "unknown-action": "never_sent",
  "accept-object-value-invalid": "never_sent",
  "accept-empty-content": { answers: [] },
  "accept-no-content": { answers: [a("question_0"), a("question_1")] },
  "accept-null-content": { answers: [a("question_0", [], "   ")] },
  "accept-custom-with-whitespace-and-selection": { answers: [a("question_0", ["Postgres"], "  CockroachDB  ")] },
  "accept-custom-only": { answers: [a("question_0", [], " CockroachDB ")] },
  "accept-whitespace-only-custom": { answers: [a("question_0", ["Postgres"], "   ")] },
  "accept-multiselect-custom": { answers: [a("question_1", ["dev"], " qa ")] },
  "accept-multiselect-empty-array": { answers: [a("question_0", ["Postgres"]), a("question_1", [])] },
  "accept-all": {
    answers: [a("question_0", ["DynamoDB"]), a("question_1", ["staging"]), a("question_2", ["Go"]), a("question_3", ["Search, full-text", "Auth"])],
  },
  "accept-partial": { answers: [a("question_2", ["TypeScript"])] },
};

describe("captured bridge versions", () => {
  test("every bridge-* folder is a version, oldest first, and the two the spec and A1 cite are there", () => {
    assert.ok(BRIDGE_VERSIONS.includes("0.65.0") && BRIDGE_VERSIONS.includes("0.101.0"), BRIDGE_VERSIONS.join(", "));
    assert.deepEqual([...BRIDGE_VERSIONS].sort(compareBridgeVersions), [...BRIDGE_VERSIONS]);
    assert.ok(compareBridgeVersions("0.65.0", "0.101.0") < 0 && compareBridgeVersions("0.101.0", "0.78.0") > 0);
    assert.ok(compareBridgeVersions("1.0.0-rc.1", "1.0.0") < 0 && compareBridgeVersions("0.78.0", "0.78.0") === 0);
  });
});

for (const version of BRIDGE_VERSIONS) {
  describe(`bridge ${version} fixtures`, () => {
    test(`every fixture file parses through its schema (${version})`, () => {
      for (const name of Object.keys(FIXTURE_SCHEMAS) as FixtureName[]) {
        const parsed = FIXTURE_SCHEMAS[name].safeParse(readFixtureJson(`bridge-${version}/${name}`));
        assert.ok(parsed.success, `${name}: ${parsed.success ? "" : parsed.error.message}`);
      }
    });

    test(`every fixture form request is a valid form elicitation for the ACP SDK (${version})`, () => {
      const requests: unknown[] = [
        ...ASK_FILES.map((f) => loadFixture(version, f).createRequest),
        loadFixture(version, "mcp-passthrough.json").apiKeyForm,
        loadFixture(version, "refusal-fallback.json").createRequest,
        loadFixture(version, "refusal-fallback.json").noCategoryNoGuidance,
        wireElicitation(version, "wire-ask-user-question.json").params,
        wireElicitation(version, "wire-mcp-passthrough.json").params,
      ];
      for (const r of requests) assert.ok(acp.CreateElicitationRequest.isForm(r as acp.CreateElicitationRequest));
    });

    test(`ask-*.json map to exactly the questions of the tool input (${version}) (AC-04, AC-05, AC-06, AC-07)`, () => {
      for (const file of ASK_FILES) {
        const fx = loadFixture(version, file);
        const mapped = mapRaw(fx.createRequest);
        assert.ok(mapped.ok, file);
        for (const q of mapped.value.questions) QuestionSchema.parse(q);
        const unmarkedWithoutToolCall =
          fx.createRequest.toolCallId === undefined &&
          fx.createRequest.requestedSchema.properties?.question_0_custom !== undefined &&
          !("_meta" in (fx.createRequest.requestedSchema.properties.question_0_custom ?? {}));
        if (unmarkedWithoutToolCall) {
          // A1 applies only with a toolCallId: the unmarked companion stands as its own free-text
          // question. Its text still lands at question_0_custom, which the bridge reads as the
          // custom answer, so the round trip is intact.
          const [select, custom] = mapped.value.questions;
          assert.equal(mapped.value.questions.length, 2, file);
          assert.deepEqual([select?.id, select?.kind, select?.companion], ["question_0", "single", undefined]);
          assert.deepEqual([custom?.id, custom?.kind, custom?.options], ["question_0_custom", "text", []]);
          assert.deepEqual(buildResponse(mapped.value.questions, { answers: [a("question_0_custom", [], " Redis ")] }), {
            action: "accept",
            content: { question_0_custom: "Redis" },
          });
          continue;
        }
        assert.deepEqual(mapped.value.questions, questionsFromToolInput(fx.input.questions, fx.createRequest), file);
        assert.equal(mapped.value.toolCallId, fx.createRequest.toolCallId ?? null, file);
      }
    });

    test(`apply-responses: the content built for the intended answer is bridge-equivalent to the fixture's (${version})`, () => {
      const sources = [
        ["apply-responses-two-questions.json", "ask-2-second-multiselect.json"],
        ["apply-responses-four-questions.json", "ask-4-mixed.json"],
      ] as const;
      for (const [applyFile, askFile] of sources) {
        const apply = loadFixture(version, applyFile);
        const ask = loadFixture(version, askFile);
        assert.deepEqual(apply.toolInput, ask.input, `${applyFile} answers the questions of ${askFile}`);
        const questions = questionsOf(ask.createRequest);
        for (const [name, { response }] of Object.entries(apply.results)) {
          const intended = INTENDED[name];
          assert.ok(intended !== undefined, `${applyFile}: no intended answer recorded for "${name}"`);
          if (intended === "never_sent") continue;
          const ours: ElicitationResponse = intended === "turn_cancelled" ? { action: "cancel" } : buildResponse(questions, intended);
          assertEquivalent(ours, response, `${applyFile} ${name}`);
        }
        // The equivalence claim, checked on the fixtures themselves: responses that normalise alike
        // produced identical results from the bridge.
        const groups = new Map<string, string>();
        for (const [name, { response, result }] of Object.entries(apply.results)) {
          if (INTENDED[name] === "never_sent") continue;
          const key = JSON.stringify([response.action, bridgeEquivalent(response.content)]);
          const seen = groups.get(key);
          if (seen === undefined) groups.set(key, JSON.stringify(result));
          else assert.equal(JSON.stringify(result), seen, `${applyFile} ${name}`);
        }
      }
    });

    test(`selection plus custom text: both keys, the bridge's result per version (${version}) (AC-12i, A2)`, () => {
      const apply = loadFixture(version, "apply-responses-two-questions.json");
      const c = apply.results["accept-custom-with-whitespace-and-selection"];
      assert.ok(c && c.result.action === "answered");
      const answer = c.result.updatedInput.answers["Which database should the new service use?"];
      // 0.65.0 lets the text win; 0.78+ keeps the pick and turns the text into a note.
      assert.equal(answer, compareBridgeVersions(version, "0.78.0") < 0 ? "CockroachDB" : "Postgres");
    });

    test(`refusal-fallback maps to one two-option question and answers as the bridge expects (${version}) (AC-12c)`, () => {
      const fx = loadFixture(version, "refusal-fallback.json");
      for (const request of [fx.createRequest, fx.noCategoryNoGuidance]) {
        const qs = questionsOf(request);
        assert.equal(qs.length, 1);
        assert.deepEqual(
          [qs[0]?.id, qs[0]?.kind, qs[0]?.prompt, qs[0]?.title, qs[0]?.companion],
          ["choice", "single", request.message, undefined, undefined],
        );
        assert.deepEqual(
          qs[0]?.options.map((o) => o.id),
          ["retry_fallback", "cancelled"],
        );
      }
      const qs = questionsOf(fx.createRequest);
      const gestures: Record<string, Intended> = {
        "0": { answers: [a("choice", ["retry_fallback"])] },
        "1": { answers: [a("choice", ["cancelled"])] },
        "2": { answers: [] },
        "3": { answers: [], rejected: true },
        "4": "turn_cancelled",
      };
      for (const [k, { response }] of Object.entries(fx.results)) {
        const intended = gestures[k];
        assert.ok(intended !== undefined && intended !== "never_sent", `refusal result ${k}`);
        assertEquivalent(intended === "turn_cancelled" ? { action: "cancel" } : buildResponse(qs, intended), response, `refusal ${k}`);
      }
    });

    test(`mcp-passthrough: apiKey round-trips; url and empty forms decline (${version}) (AC-04a, AC-11a, AC-16, AC-18)`, () => {
      const fx = loadFixture(version, "mcp-passthrough.json");
      const qs = questionsOf(fx.apiKeyForm);
      assert.deepEqual(qs, [{ id: "apiKey", kind: "text", prompt: "Enter your API key", options: [] }]);
      const r0 = fx.responseMapping["0"];
      assert.ok(r0);
      assertEquivalent(buildResponse(qs, { answers: [a("apiKey", [], "sk-123")] }), r0.response, "mcp 0");
      assert.deepEqual(r0.elicitResult, r0.response, "the MCP server receives exactly what we send");
      const decline = fx.responseMapping["3"];
      assert.ok(decline);
      assertEquivalent(buildResponse(qs, { answers: [], rejected: true }), decline.response, "mcp 3");
      for (const [request, reason] of [
        [fx.urlWithUrl, "url_mode"],
        [fx.formNoSchema, "no_questions"],
        [fx.formNoMode_TypeMissing, "no_questions"],
      ] as const) {
        const r = mapRaw(request);
        assert.equal(r.ok ? "mapped" : r.reason, reason);
      }
    });

    test(`wire-ask-user-question: the captured frame maps, and our answer is what the model saw (${version}) (AC-03, AC-10, AC-12)`, () => {
      const { params, wire } = wireElicitation(version, "wire-ask-user-question.json");
      const qs = questionsOf(params);
      assert.deepEqual(
        qs.map((q) => [q.id, q.kind, q.title, q.companion?.id]),
        [
          ["question_0", "single", "Colour", "question_0_custom"],
          ["question_1", "multi", "Platforms", "question_1_custom"],
        ],
      );
      const response = buildResponse(qs, { answers: [a("question_1", ["iOS", "Web"]), a("question_0", ["Red"])] });
      assert.deepEqual(response, { action: "accept", content: { question_1: ["Web", "iOS"], question_0: "Red" } });
      const seen = String(wire.toolResultsSeenByFakeModel[0]?.content);
      for (const q of qs) {
        const value = response.action === "accept" ? response.content[q.id] : undefined;
        const joined = Array.isArray(value) ? value.join(", ") : value;
        assert.ok(seen.includes(`"${q.prompt}"="${joined}"`), `${q.id}: ${seen}`);
      }
    });

    test(`wire-mcp-passthrough: our response is exactly what reached the MCP server (${version}) (AC-04a, AC-11a)`, () => {
      const { params, wire } = wireElicitation(version, "wire-mcp-passthrough.json");
      const qs = questionsOf(params);
      assert.deepEqual(qs, [{ id: "apiKey", kind: "text", prompt: "Enter your API key", options: [] }]);
      const content = wire.toolResultsSeenByFakeModel[0]?.content as Array<{ text: string }>;
      const text = content[0]?.text ?? "";
      const delivered = JSON.parse(text.slice(text.indexOf("{"))) as unknown;
      assert.deepEqual(buildResponse(qs, { answers: [a("apiKey", [], " sk-test-123 ")] }), delivered);
    });
  });
}

describe("bridge version differences the mapping absorbs", () => {
  test("0.101.0 drops the companion marker, 0.65.0 carries it; both map to the same questions (A1)", () => {
    const byVersion = (v: BridgeVersion) => questionsOf(wireElicitation(v, "wire-ask-user-question.json").params);
    const [old, current] = [byVersion("0.65.0"), byVersion("0.101.0")];
    const props = wireElicitation("0.101.0", "wire-ask-user-question.json").params.requestedSchema.properties ?? {};
    assert.ok(!("_meta" in (props.question_0_custom ?? {})), "0.101.0 companion has no marker");
    const strip = (qs: Question[]) => qs.map((q) => ({ ...q, companion: q.companion && { id: q.companion.id, title: q.companion.title } }));
    assert.deepEqual(strip(current), strip(old));
    assert.notEqual(current[0]?.companion?.description, old[0]?.companion?.description, "each keeps its own wording (F6)");
  });
});
