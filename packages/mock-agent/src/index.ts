export { createMockAgent } from "./agent.js";
export type { MockAgentOptions, MockAgentState } from "./agent.js";
export { scenarios, CRASH_LINE, CRASH_EXIT_CODE } from "./scenarios/index.js";
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
