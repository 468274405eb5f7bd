export { createMockAgent } from "./agent.js";
export type { MockAgentOptions, MockAgentState } from "./agent.js";
export { scenarios, CRASH_LINE, CRASH_EXIT_CODE, LEAK_EXIT_CODE, TOOL_DETAILS, PLAN_STEPS } from "./scenarios/index.js";
export { floodChunk, floodStampLine, parseFloodStamps } from "./scenarios/flood.js";
export type { FloodStamp } from "./scenarios/flood.js";
export { BenchWireStamps } from "./scenarios/bench-wire.js";
export type { Scenario, ScenarioContext, ScenarioRegistry, StreamOptions } from "./scenario.js";
export { tapStream, parseFrameLog } from "./frame-log.js";
export type { FrameLogLine } from "./frame-log.js";
export { parsePrompt, promptText, splitChunks } from "./prompt-parse.js";
export type { ParsedPrompt } from "./prompt-parse.js";
export {
  kandevQuestionScenarios,
  ONE_QUESTION,
  THREE_QUESTIONS,
  GATE_SIGNAL,
  KANDEV_SERVER_NAME,
  KANDEV_TOOL,
} from "./scenarios/kandev-question.js";
export { fuzzCases, mulberry32, validBody, deepJson, RAW_ID_PREFIX } from "./scenarios/fuzz-cases.js";
export type { FuzzCase, RawExpect, Rng } from "./scenarios/fuzz-cases.js";
export { fuzzScenarios, numericArgs } from "./scenarios/fuzz.js";
export type { FuzzTally } from "./scenarios/fuzz.js";
export { rawLogLine, RAW_LOG_CHARS } from "./frame-log.js";
export { MOCK_MODES, MOCK_MODELS, MOCK_COMMANDS, MockSessionSettings } from "./session-state.js";
export { MOCK_USAGE, USAGE_BURST } from "./scenarios/session-state.js";
