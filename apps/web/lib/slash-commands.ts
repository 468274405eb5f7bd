import type { AvailableCommand } from "@kandev/protocol";

/**
 * Slash-command completion in the prompt box: while the text is `/` and a command name being
 * typed (nothing after it yet), the agent's commands that match are offered.
 */

/** The name typed so far after a leading `/`, or null when the text is not a command being typed. */
export function slashQuery(text: string): string | null {
  const m = /^\/([^\s/]*)$/.exec(text);
  return m === null ? null : m[1]!;
}

/** Commands matching `query`: names starting with it first, then names containing it; at most `limit`. */
export function matchCommands(commands: readonly AvailableCommand[], query: string, limit = 8): AvailableCommand[] {
  const q = query.toLowerCase();
  const starts = commands.filter((c) => c.name.toLowerCase().startsWith(q));
  const contains = commands.filter((c) => !c.name.toLowerCase().startsWith(q) && c.name.toLowerCase().includes(q));
  return [...starts, ...contains].slice(0, limit);
}

/** The prompt text once a command is chosen: `/name ` ready for its input. */
export function completeCommand(command: AvailableCommand): string {
  return `/${command.name} `;
}

/** The highlighted row after an arrow key, wrapping around. */
export function moveHighlight(index: number, count: number, key: "ArrowDown" | "ArrowUp"): number {
  if (count === 0) return 0;
  return key === "ArrowDown" ? (index + 1) % count : (index - 1 + count) % count;
}
