import type { ScenarioRegistry } from "../scenario.js";
import { benchScenarios } from "./bench.js";
import { crash, crashOnce } from "./crash.js";
import { echo, plain } from "./echo.js";
import { editFile } from "./edit-file.js";
import { env, leakKey } from "./env.js";
import { elicitationScenarios } from "./elicitation.js";
import { flood } from "./flood.js";
import { fuzzScenarios } from "./fuzz.js";
import { hang } from "./hang.js";
import { kandevQuestionScenarios } from "./kandev-question.js";
import { permission } from "./permission.js";
import { pid } from "./pid.js";
import { plan } from "./plan.js";
import { selfApprove } from "./self-approve.js";
import { slow } from "./slow.js";
import { thought } from "./thought.js";
import { sessionState } from "./session-state.js";
import { steps, toolCall } from "./tool-call.js";
import { toolDetails } from "./tool-details.js";

/** Every scenario the mock agent knows, by the name used in `/e2e:<name>`. */
export const scenarios: ScenarioRegistry = {
  echo,
  plain,
  "tool-call": toolCall,
  steps,
  "edit-file": editFile,
  "tool-details": toolDetails,
  plan,
  thought,
  permission,
  "self-approve": selfApprove,
  slow,
  flood,
  crash,
  "crash-once": crashOnce,
  pid,
  hang,
  env,
  "leak-key": leakKey,
  "session-state": sessionState,
  ...elicitationScenarios,
  ...kandevQuestionScenarios,
  ...fuzzScenarios,
  ...benchScenarios,
};

export { CRASH_LINE, CRASH_EXIT_CODE } from "./crash.js";
export { LEAK_EXIT_CODE } from "./env.js";
export { TOOL_DETAILS } from "./tool-details.js";
export { PLAN_STEPS } from "./plan.js";
