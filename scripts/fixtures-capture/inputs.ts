// The inputs of a capture. Pure. Whatever the fixtures record as an input (an AskUserQuestion tool
// input, an ACP response, a refusal payload) is read back from the newest checked-in version, so
// those inputs have one source of truth; what they do not record (the arguments the builders were
// called with, the malformed probes) is in probe-inputs.ts.
import { CaptureError } from "./errors.js";

export type JsonObject = Record<string, unknown>;
/** A named ACP elicitation response, in the order its fixture lists them. */
export type NamedResponse = readonly [name: string, response: JsonObject];

/** The `ask-*` fixtures and the toolCallId each was built with (absent for the first). */
export const ASK_CASES = [
  { file: "ask-1-no-toolcallid.json", toolCallId: undefined },
  { file: "ask-1-single-select-preview.json", toolCallId: "tool-42" },
  { file: "ask-2-second-multiselect.json", toolCallId: "tool-43" },
  { file: "ask-4-mixed.json", toolCallId: "tool-44" },
] as const;
export const APPLY_FILES = ["apply-responses-two-questions.json", "apply-responses-four-questions.json"] as const;
export const MCP_FILE = "mcp-passthrough.json";
export const REFUSAL_FILE = "refusal-fallback.json";
export const EXTRACT_FILE = "extract-gatekeeping.json";

/** Every file the capture builds from a bridge's own builders, in the order it reports them. */
export const GENERATED_FILES = [...ASK_CASES.map((c) => c.file), ...APPLY_FILES, MCP_FILE, REFUSAL_FILE, EXTRACT_FILE] as const;
export type GeneratedFile = (typeof GENERATED_FILES)[number];

/** Frames captured from a live bridge running the real CLI: never rebuilt, copied forward when absent. */
export const WIRE_FILES = ["wire-ask-user-question.json", "wire-mcp-passthrough.json", "wire-coding-session.json"] as const;

export interface RecordedInputs {
  ask: Array<{ file: (typeof ASK_CASES)[number]["file"]; toolCallId: string | undefined; toolInput: JsonObject }>;
  apply: Array<{ file: (typeof APPLY_FILES)[number]; toolInput: JsonObject; responses: NamedResponse[] }>;
  mcpResponses: NamedResponse[];
  refusal: { payload: JsonObject; responses: NamedResponse[] };
}

function isObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function field(file: string, doc: unknown, key: string): unknown {
  if (!isObject(doc)) throw new CaptureError(`${file}: expected a JSON object at the top level`);
  if (!(key in doc)) throw new CaptureError(`${file}: the input field "${key}" is missing`);
  return doc[key];
}

function toolInputOf(file: string, doc: unknown, key: string): JsonObject {
  const value = field(file, doc, key);
  if (!isObject(value) || !Array.isArray(value.questions)) {
    throw new CaptureError(`${file}: "${key}" must be an AskUserQuestion tool input (an object with a "questions" array)`);
  }
  return value;
}

/** `{name: {response, ...}}` as a list of named responses, in file order. */
function responsesOf(file: string, doc: unknown, key: string): NamedResponse[] {
  const table = field(file, doc, key);
  if (!isObject(table) || Object.keys(table).length === 0) throw new CaptureError(`${file}: "${key}" must be a non-empty object`);
  return Object.entries(table).map(([name, entry]) => {
    const response = isObject(entry) ? entry.response : undefined;
    if (!isObject(response) || typeof response.action !== "string") {
      throw new CaptureError(`${file}: "${key}.${name}.response" must be an object with a string "action"`);
    }
    return [name, response] as const;
  });
}

/**
 * Reads the recorded inputs out of one version's fixture files. `read(file)` returns the parsed
 * JSON of a file of that version (it throws a CaptureError when the file is missing or unparsable).
 */
export function readRecordedInputs(read: (file: string) => unknown): RecordedInputs {
  const refusalDoc = read(REFUSAL_FILE);
  const payload = field(REFUSAL_FILE, refusalDoc, "payload");
  if (!isObject(payload)) throw new CaptureError(`${REFUSAL_FILE}: "payload" must be an object`);
  return {
    ask: ASK_CASES.map((c) => ({ file: c.file, toolCallId: c.toolCallId, toolInput: toolInputOf(c.file, read(c.file), "input") })),
    apply: APPLY_FILES.map((file) => {
      const doc = read(file);
      return { file, toolInput: toolInputOf(file, doc, "toolInput"), responses: responsesOf(file, doc, "results") };
    }),
    mcpResponses: responsesOf(MCP_FILE, read(MCP_FILE), "responseMapping"),
    refusal: { payload, responses: responsesOf(REFUSAL_FILE, refusalDoc, "results") },
  };
}
