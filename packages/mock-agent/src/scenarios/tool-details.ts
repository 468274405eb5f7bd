import path from "node:path";
import type { Scenario } from "../scenario.js";

let calls = 0;

/** The texts `/e2e:tool-details` reports, so tests can look for them. */
export const TOOL_DETAILS = {
  editedFile: "src/greet.ts",
  oldText: 'export const greet = () => "hello";\nexport const n = 1;\n',
  newText: 'export const greet = () => "hello, world";\nexport const n = 1;\n',
  newFile: "src/added.ts",
  newFileText: "export const added = true;\n",
  output: "Updated 1 file, created 1 file.",
  terminalId: "mock-term-1",
} as const;

/**
 * Reports (without writing anything) a tool call with everything ACP lets one carry, the way the
 * Claude bridge does: the call with locations and raw input, then an update with a diff of an
 * existing file, a diff creating a file, text output, a terminal, raw output and `completed`.
 */
export const toolDetails: Scenario = {
  description: "reports an edit tool call with locations, raw input, two diffs, text, a terminal and raw output",
  async run(ctx) {
    calls += 1;
    const toolCallId = `mock-details-${calls}`;
    const edited = path.join(ctx.cwd, TOOL_DETAILS.editedFile);
    const added = path.join(ctx.cwd, TOOL_DETAILS.newFile);
    await ctx.update({
      sessionUpdate: "tool_call",
      toolCallId,
      title: `Edit ${TOOL_DETAILS.editedFile}`,
      kind: "edit",
      status: "pending",
      locations: [{ path: edited, line: 1 }, { path: added }],
      rawInput: { file_path: edited, old_string: '"hello"', new_string: '"hello, world"' },
    });
    await ctx.update({ sessionUpdate: "tool_call_update", toolCallId, status: "in_progress" });
    await ctx.update({
      sessionUpdate: "tool_call_update",
      toolCallId,
      status: "completed",
      content: [
        { type: "diff", path: edited, oldText: TOOL_DETAILS.oldText, newText: TOOL_DETAILS.newText },
        { type: "diff", path: added, oldText: null, newText: TOOL_DETAILS.newFileText },
        { type: "content", content: { type: "text", text: TOOL_DETAILS.output } },
        { type: "terminal", terminalId: TOOL_DETAILS.terminalId },
      ],
      rawOutput: { updated: [edited], created: [added] },
    });
    await ctx.say("Edited the greeting.");
    return "end_turn";
  },
};
