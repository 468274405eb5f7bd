// Builder inputs the fixture files do not record (they keep only what the bridge made of them).
// Chosen to probe one behaviour each; changing one changes the fixture of every version, so a
// change here needs every checked-in version re-captured (docs/BRIDGE-UPGRADE.md).
import type { JsonObject } from "./inputs.js";

/** The ACP session id every request of the fixtures is built for. */
export const SESSION_ID = "sess-1";

/** MCP `onElicitation` requests, one per key of `mcp-passthrough.json` (its responses are recorded). */
export const MCP_REQUESTS = {
  // `properties` before `type`: shows whether the bridge passes the schema through untouched.
  apiKeyForm: { mode: "form", message: "Enter your API key", requestedSchema: { properties: { apiKey: { type: "string" } } } },
  formNoMode_TypeMissing: { message: "x", requestedSchema: {} },
  formNoSchema: { mode: "form", message: "no schema" },
  urlWithoutUrl: { mode: "url", message: "auth", elicitationId: "e-0" },
  // An explicit elicitationId: without one the bridge makes a random one and the fixture would churn.
  urlWithUrl: { mode: "url", message: "auth", url: "https://example.invalid/auth", elicitationId: "e-1" },
} as const satisfies Record<string, JsonObject>;

const LANGUAGE_QUESTION = {
  question: "Which language for the CLI?",
  header: "Language",
  multiSelect: false,
  options: [
    { label: "Go", description: "Static binary." },
    { label: "TypeScript", description: "Shares code with the web app." },
  ],
};

/** `extractAskUserQuestions` inputs, one per key of `extract-gatekeeping.json`. */
export const EXTRACT_INPUTS = {
  oneGoodOneBad: { questions: [{ header: "No question text", options: [{ label: "a" }, { label: "b" }] }, LANGUAGE_QUESTION] },
  allBad: {
    questions: [
      null,
      { question: 7, header: "h", options: [{ label: "a" }] },
      { question: "No options?", header: "h", options: [] },
      { question: "Options not a list?", header: "h", options: "a" },
    ],
  },
  nonArray: { questions: "Which language for the CLI?" },
  missing: {},
  oneOptionOnly: { questions: [{ question: "q?", header: "h", options: [{ label: "a" }] }] },
} as const satisfies Record<string, JsonObject>;

/** A refusal-fallback dialog payload the bridge must reject (originalModel is not a string). */
export const BAD_REFUSAL_PAYLOAD = { originalModel: 42, fallbackModel: "Opus" } as const;
