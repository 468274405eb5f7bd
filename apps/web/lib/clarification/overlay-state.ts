/**
 * The overlay's state machine, pure: which question is showing, whether the overlay is collapsed,
 * and the draft answer (lib/clarification/answer-model). Picking and advancing return whether the
 * gesture submits, so the component only performs what these functions decide.
 *
 * Both sources move on to the next question when a pick settles a single-select question in a
 * bundle (auto-advance), so the two behave alike where the spec allows. What stays apart:
 * - the ask-tool path keeps its shipped flow (AC-57): a single question submits on pick;
 * - an elicitation never submits on a pick (Submit is explicit and always enabled, AC-12b), a
 *   multi-select pick never moves on (picks accumulate, AC-55), and un-picking stays put. A note
 *   for a pick (A2) is typed before picking, or after going Back: the pick stays selected.
 */
import type { ClarificationSource, Question } from "@kandev/protocol";
import { canSubmit, emptyDraft, isAnswered, setCustomText, toggleOption, type Draft } from "./answer-model";

export interface OverlayState {
  source: ClarificationSource;
  questions: readonly Question[];
  /** Index of the question on screen. */
  step: number;
  collapsed: boolean;
  draft: Draft;
}

export interface Transition {
  state: OverlayState;
  /** Whether this gesture sends the answer now (with `state.draft`). */
  submit: boolean;
}

/** A fresh overlay, or one resumed from a saved draft (draft-store.ts restores it already sanitized). */
export function initialOverlay(
  source: ClarificationSource,
  questions: readonly Question[],
  resumed?: { step: number; draft: Draft } | null,
): OverlayState {
  const fresh: OverlayState = { source, questions, step: 0, collapsed: false, draft: emptyDraft([...questions]) };
  if (!resumed) return fresh;
  return goTo({ ...fresh, draft: { ...fresh.draft, ...resumed.draft } }, resumed.step);
}

export function currentQuestion(state: OverlayState): Question | undefined {
  return state.questions[state.step];
}

export function isLastStep(state: OverlayState): boolean {
  return state.step >= state.questions.length - 1;
}

/** Whether Submit is enabled now (ask-tool bundles need every answer; elicitations never wait). */
export function submittable(state: OverlayState): boolean {
  return canSubmit([...state.questions], state.source, state.draft);
}

/** Picks (or un-picks) option `optionIndex` of the question on screen: a click, Space or a digit. */
export function pickOption(state: OverlayState, optionIndex: number): Transition {
  const q = currentQuestion(state);
  const option = q?.options[optionIndex];
  if (!q || !option) return { state, submit: false };
  const draft = toggleOption(state.draft, state.source, q, option.id);
  const next = { ...state, draft };
  const picked = draft[q.id]?.selected.includes(option.id) ?? false;
  if (state.source === "kandev_tool" && state.questions.length === 1) return { state: next, submit: true };
  const movesOn = picked && !isLastStep(next) && !(state.source === "elicitation" && q.kind === "multi");
  return { state: movesOn ? { ...next, step: next.step + 1 } : next, submit: false };
}

/** Typing in the text box of the question on screen. */
export function typeText(state: OverlayState, text: string): OverlayState {
  const q = currentQuestion(state);
  if (!q) return state;
  return { ...state, draft: setCustomText(state.draft, state.source, q, text) };
}

/** Goes to another question (Back, Next, a step dot); out-of-range steps are clamped. */
export function goTo(state: OverlayState, step: number): OverlayState {
  const clamped = Math.max(0, Math.min(state.questions.length - 1, step));
  return clamped === state.step ? state : { ...state, step: clamped };
}

/**
 * Enter: the next question, or on the last one, submit. A ask-tool bundle that is not complete
 * yet goes to the first unanswered question instead of submitting.
 */
export function advance(state: OverlayState): Transition {
  if (!isLastStep(state)) return { state: goTo(state, state.step + 1), submit: false };
  if (submittable(state)) return { state, submit: true };
  const firstOpen = state.questions.findIndex((q) => !isAnswered(state.draft[q.id]));
  return { state: goTo(state, firstOpen), submit: false };
}

/** Escape only collapses: nothing is sent and the draft is kept. */
export function collapse(state: OverlayState): OverlayState {
  return state.collapsed ? state : { ...state, collapsed: true };
}

export function expand(state: OverlayState): OverlayState {
  return state.collapsed ? { ...state, collapsed: false } : state;
}

/** Which questions have an answer in the draft (for the stepper's dots). */
export function answeredSteps(state: OverlayState): boolean[] {
  return state.questions.map((q) => isAnswered(state.draft[q.id]));
}

/** Whether the question on screen shows a text box, and what it is for. */
export type TextBox = "none" | "custom" | "companion" | "answer";

/**
 * ask-tool questions always offer a custom answer. An elicitation question offers text only
 * where it can go on the wire: its companion (A2), or its own key when it has no options (AC-56);
 * a choice without a companion has nowhere to put text.
 */
export function textBoxFor(source: ClarificationSource, q: Question): TextBox {
  if (source === "kandev_tool") return "custom";
  if (q.companion) return "companion";
  if (q.kind === "text" || q.options.length === 0) return "answer";
  return "none";
}
