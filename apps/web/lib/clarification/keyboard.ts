/**
 * The overlay's keyboard map, pure (DECISIONS §7): digits 1-9 pick an option, arrows move between
 * options, Enter moves on or submits, Shift+Enter is a newline in a text box, Escape collapses.
 * A digit typed into a text box is text, never a pick.
 *
 * Enter on a focused option differs by source. ask-tool options are numbered buttons, so Enter
 * clicks (picks) the one in focus, as it always did. Elicitation options are radios and
 * checkboxes of a form: Space toggles the one in focus and Enter sends the form (or moves to the
 * next question), so picking several options never submits by accident.
 */
import type { ClarificationSource } from "@kandev/protocol";

/** Where a key was pressed, as far as the map cares. */
export interface KeyContext {
  source: ClarificationSource;
  key: string;
  shiftKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  /** An IME is composing: Enter belongs to it. */
  isComposing: boolean;
  /** Focus is in a text box (the custom answer). */
  inTextBox: boolean;
  /** Focus is on one of the options. */
  onOption: boolean;
  /** Focus is on some other button (Next, Submit, Skip...), which handles Enter itself. */
  onButton: boolean;
}

export type KeyCommand = { type: "pick"; index: number } | { type: "move"; delta: 1 | -1 } | { type: "advance" } | { type: "collapse" };

export function keyCommand(k: KeyContext): KeyCommand | null {
  if (k.isComposing || k.ctrlKey || k.metaKey || k.altKey) return null;
  if (k.key === "Escape") return { type: "collapse" };
  if (k.key === "Enter") {
    if (k.shiftKey) return null;
    // Other buttons (Next, Submit, Skip) click themselves; see above for options.
    if (k.onButton) return null;
    if (k.onOption && k.source === "kandev_tool") return null;
    return { type: "advance" };
  }
  if (k.inTextBox) return null;
  if (/^[1-9]$/.test(k.key)) return { type: "pick", index: Number(k.key) - 1 };
  if (k.key === "ArrowDown" || k.key === "ArrowRight") return k.onOption ? { type: "move", delta: 1 } : null;
  if (k.key === "ArrowUp" || k.key === "ArrowLeft") return k.onOption ? { type: "move", delta: -1 } : null;
  return null;
}

/** The option index focus moves to, wrapping around. */
export function movedIndex(current: number, delta: 1 | -1, count: number): number {
  if (count <= 0) return 0;
  return (((current + delta) % count) + count) % count;
}
