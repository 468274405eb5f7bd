// Builds every generated fixture by calling one bridge version's own dist/elicitation.js exports.
// Pure apart from whatever the bridge's builders do: the module is passed in, so tests hand it fakes.
import {
  EXTRACT_FILE,
  GENERATED_FILES,
  MCP_FILE,
  REFUSAL_FILE,
  type GeneratedFile,
  type JsonObject,
  type NamedResponse,
  type RecordedInputs,
} from "./inputs.js";
import { BAD_REFUSAL_PAYLOAD, EXTRACT_INPUTS, MCP_REQUESTS, SESSION_ID } from "./probe-inputs.js";

/** The namespace object of an imported `dist/elicitation.js`. */
export type BridgeModule = Readonly<Record<string, unknown>>;

/** The exports each fixture file needs (REFUSAL_FALLBACK_DIALOG_KIND is a string, the rest functions). */
export const BUILDERS_BY_FILE: Record<GeneratedFile, readonly string[]> = {
  "ask-1-no-toolcallid.json": ["extractAskUserQuestions", "askUserQuestionsToCreateRequest"],
  "ask-1-single-select-preview.json": ["extractAskUserQuestions", "askUserQuestionsToCreateRequest"],
  "ask-2-second-multiselect.json": ["extractAskUserQuestions", "askUserQuestionsToCreateRequest"],
  "ask-4-mixed.json": ["extractAskUserQuestions", "askUserQuestionsToCreateRequest"],
  "apply-responses-two-questions.json": ["extractAskUserQuestions", "applyAskElicitationResponse"],
  "apply-responses-four-questions.json": ["extractAskUserQuestions", "applyAskElicitationResponse"],
  "mcp-passthrough.json": ["mcpElicitationToCreateRequest", "createElicitationResponseToElicitResult"],
  "refusal-fallback.json": [
    "REFUSAL_FALLBACK_DIALOG_KIND",
    "extractRefusalFallbackPrompt",
    "refusalFallbackToCreateRequest",
    "refusalFallbackResultFromResponse",
  ],
  "extract-gatekeeping.json": ["extractAskUserQuestions"],
};

export type BuildOutcome =
  | { file: GeneratedFile; ok: true; text: string }
  | { file: GeneratedFile; ok: false; reason: "missing_builder" | "builder_threw"; message: string };

/** The exact bytes of a generated fixture file. */
export function serializeFixture(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

class BuilderThrew extends Error {}

/** The missing (or wrongly typed) exports among `names`. */
export function missingExports(bridge: BridgeModule, names: readonly string[]): string[] {
  return names.filter((n) => (n === "REFUSAL_FALLBACK_DIALOG_KIND" ? typeof bridge[n] !== "string" : typeof bridge[n] !== "function"));
}

/**
 * Every builder gets fresh copies of its inputs: a builder that mutates what it is given must not
 * leak into the next case (and the recorded inputs are written back as they were read).
 */
function call(bridge: BridgeModule, name: string, ...args: unknown[]): unknown {
  const fn = bridge[name] as (...a: unknown[]) => unknown;
  try {
    return fn(...args.map((a) => structuredClone(a)));
  } catch (err) {
    throw new BuilderThrew(`${name} threw: ${err instanceof Error ? err.message : String(err)}`);
  }
}

function answersTable(responses: readonly NamedResponse[], build: (response: JsonObject) => [string, unknown]): JsonObject {
  return Object.fromEntries(
    responses.map(([name, response]) => {
      const [key, result] = build(response);
      return [name, { response, [key]: result }];
    }),
  );
}

function askFixture(bridge: BridgeModule, inputs: RecordedInputs, file: GeneratedFile): unknown {
  const ask = inputs.ask.find((c) => c.file === file);
  if (!ask) throw new Error(`no recorded input for ${file}`);
  const extracted = call(bridge, "extractAskUserQuestions", ask.toolInput);
  return {
    input: ask.toolInput,
    extracted,
    createRequest: call(bridge, "askUserQuestionsToCreateRequest", extracted, SESSION_ID, ask.toolCallId),
  };
}

function applyFixture(bridge: BridgeModule, inputs: RecordedInputs, file: GeneratedFile): unknown {
  const apply = inputs.apply.find((c) => c.file === file);
  if (!apply) throw new Error(`no recorded input for ${file}`);
  const questions = call(bridge, "extractAskUserQuestions", apply.toolInput);
  return {
    toolInput: apply.toolInput,
    results: answersTable(apply.responses, (r) => ["result", call(bridge, "applyAskElicitationResponse", r, apply.toolInput, questions)]),
  };
}

function mcpFixture(bridge: BridgeModule, inputs: RecordedInputs): unknown {
  const requests = Object.entries(MCP_REQUESTS).map(([key, request]) => [key, call(bridge, "mcpElicitationToCreateRequest", request, SESSION_ID)]);
  return {
    ...Object.fromEntries(requests),
    responseMapping: answersTable(inputs.mcpResponses, (r) => ["elicitResult", call(bridge, "createElicitationResponseToElicitResult", r)]),
  };
}

function refusalFixture(bridge: BridgeModule, inputs: RecordedInputs): unknown {
  const { payload, responses } = inputs.refusal;
  const extracted = call(bridge, "extractRefusalFallbackPrompt", payload);
  // The same dialog without its optional parts, taken from the recorded payload.
  const bare = call(bridge, "extractRefusalFallbackPrompt", { originalModel: payload.originalModel, fallbackModel: payload.fallbackModel });
  return {
    REFUSAL_FALLBACK_DIALOG_KIND: bridge.REFUSAL_FALLBACK_DIALOG_KIND,
    payload,
    extracted,
    createRequest: call(bridge, "refusalFallbackToCreateRequest", extracted, SESSION_ID),
    noCategoryNoGuidance: call(bridge, "refusalFallbackToCreateRequest", bare, SESSION_ID),
    badPayload: call(bridge, "extractRefusalFallbackPrompt", BAD_REFUSAL_PAYLOAD),
    results: answersTable(responses, (r) => ["result", call(bridge, "refusalFallbackResultFromResponse", r)]),
  };
}

function extractFixture(bridge: BridgeModule): unknown {
  return Object.fromEntries(Object.entries(EXTRACT_INPUTS).map(([key, input]) => [key, call(bridge, "extractAskUserQuestions", input)]));
}

type Recipe = (bridge: BridgeModule, inputs: RecordedInputs, file: GeneratedFile) => unknown;
/** How each file is made; a Record so a file added to GENERATED_FILES without a recipe fails to compile. */
const RECIPES: Record<GeneratedFile, Recipe> = {
  "ask-1-no-toolcallid.json": askFixture,
  "ask-1-single-select-preview.json": askFixture,
  "ask-2-second-multiselect.json": askFixture,
  "ask-4-mixed.json": askFixture,
  "apply-responses-two-questions.json": applyFixture,
  "apply-responses-four-questions.json": applyFixture,
  [MCP_FILE]: mcpFixture,
  [REFUSAL_FILE]: refusalFixture,
  [EXTRACT_FILE]: extractFixture,
};

/**
 * Builds every generated fixture. A file whose exports are missing, or whose builder throws, comes
 * back as a failed outcome naming the export; the other files are still built (so the report can
 * show them), but the caller writes nothing unless every outcome is ok.
 */
export function buildFixtures(bridge: BridgeModule, inputs: RecordedInputs): BuildOutcome[] {
  const available = Object.keys(bridge).sort().join(", ") || "(none)";
  return GENERATED_FILES.map((file): BuildOutcome => {
    const missing = missingExports(bridge, BUILDERS_BY_FILE[file]);
    if (missing.length > 0) {
      return {
        file,
        ok: false,
        reason: "missing_builder",
        message: `dist/elicitation.js has no export ${missing.join(", ")} (it exports: ${available})`,
      };
    }
    try {
      return { file, ok: true, text: serializeFixture(RECIPES[file](bridge, inputs, file)) };
    } catch (err) {
      if (err instanceof BuilderThrew) return { file, ok: false, reason: "builder_threw", message: err.message };
      // A builder result JSON cannot hold (a BigInt, a cycle) is the bridge's doing too.
      if (err instanceof TypeError && /JSON|BigInt|circular/i.test(err.message)) {
        return { file, ok: false, reason: "builder_threw", message: `a builder result is not JSON: ${err.message}` };
      }
      throw err;
    }
  });
}
