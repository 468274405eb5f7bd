import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Scenario } from "../scenario.js";

let edits = 0;

/** The file and text an `/e2e:edit-file` prompt asks for: `<path> <text>`, `\n` in the text is a line break. */
export function parseEdit(rest: string): { file: string; text: string } {
  const trimmed = rest.trim();
  const space = trimmed.indexOf(" ");
  const file = space === -1 ? trimmed : trimmed.slice(0, space);
  const text = space === -1 ? "" : trimmed.slice(space + 1);
  return {
    file: file.length > 0 ? file : "NOTES.md",
    text: `${(text.length > 0 ? text : "Edited by the mock agent").replace(/\\n/g, "\n")}\n`,
  };
}

/**
 * Writes a file in the session's ACP `cwd` (never outside it) and reports the edit the way a coding
 * agent does: an `edit` tool call carrying a diff (old and new text), pending, then completed.
 */
export const editFile: Scenario = {
  description: "writes <path> <text> in the session's cwd and reports it as an edit tool call with diff content",
  async run(ctx) {
    const { file, text } = parseEdit(ctx.rest);
    const target = path.resolve(ctx.cwd, file);
    if (target !== ctx.cwd && !target.startsWith(ctx.cwd + path.sep)) {
      await ctx.say(`Refusing to write outside the session's folder: ${file}`);
      return "end_turn";
    }
    edits += 1;
    const toolCallId = `mock-edit-${edits}`;
    const oldText = await readFile(target, "utf8").catch(() => null);
    await ctx.update({
      sessionUpdate: "tool_call",
      toolCallId,
      title: `Edit ${file}`,
      kind: "edit",
      status: "pending",
      locations: [{ path: target }],
      content: [{ type: "diff", path: target, oldText, newText: text }],
    });
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, text);
    await ctx.update({ sessionUpdate: "tool_call_update", toolCallId, status: "completed" });
    await ctx.say(`Edited ${file}.`);
    return "end_turn";
  },
};
