/**
 * A half-answered clarification survives leaving the page: the overlay's draft (and the question
 * it was on) is kept in the browser's storage under `kandev.clarification-draft.<pending_id>`,
 * restored when the overlay opens again, and cleared once the answer is sent or the
 * clarification settles. Pure over a `Storage`-like object, so it is tested without a browser.
 *
 * Storage is the operator's own browser and may hold anything (an older shape, hand edits, a
 * full quota): a draft that does not parse is ignored, a failing storage is ignored, and what is
 * restored is re-checked against the questions as they are now, by the answer model's own rules.
 */
import type { ClarificationSource, Question } from "@kandev/protocol";
import { customTextLimit, emptyDraft, isAnswered, type Draft } from "./answer-model";
import { textBoxFor } from "./overlay-state";

export const DRAFT_KEY_PREFIX = "kandev.clarification-draft.";

/** Drafts older than this are dropped by `pruneDrafts` (a question rarely waits that long). */
export const DRAFT_MAX_AGE_MS = 30 * 24 * 60 * 60 * 1000;

/** The part of `window.localStorage` the store uses. */
export interface DraftStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
  readonly length: number;
  key(index: number): string | null;
}

/** What is stored; not a wire type (only this tab's own code writes and reads it), so a guard, not a zod schema. */
export interface SavedDraft {
  v: 1;
  step: number;
  saved_at: number;
  draft: Draft;
}

function isRecord(x: unknown): x is Record<string, unknown> {
  return typeof x === "object" && x !== null && !Array.isArray(x);
}

function isSavedDraft(x: unknown): x is SavedDraft {
  if (!isRecord(x) || x.v !== 1 || !Number.isInteger(x.step) || (x.step as number) < 0 || typeof x.saved_at !== "number") return false;
  if (!isRecord(x.draft)) return false;
  return Object.values(x.draft).every(
    (d) => isRecord(d) && typeof d.customText === "string" && Array.isArray(d.selected) && d.selected.every((s) => typeof s === "string"),
  );
}

export function draftKey(pendingId: string): string {
  return `${DRAFT_KEY_PREFIX}${pendingId}`;
}

/** The saved draft of a clarification; null when there is none, it does not parse, or storage fails. */
export function readDraft(storage: DraftStorage, pendingId: string): SavedDraft | null {
  try {
    const raw = storage.getItem(draftKey(pendingId));
    if (raw === null) return null;
    const parsed: unknown = JSON.parse(raw);
    return isSavedDraft(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

/** Saves the draft; a draft with nothing answered is not worth keeping, so it clears instead. */
export function writeDraft(storage: DraftStorage, pendingId: string, step: number, draft: Draft, nowMs: number): void {
  if (!Object.values(draft).some(isAnswered)) {
    clearDraft(storage, pendingId);
    return;
  }
  const saved: SavedDraft = { v: 1, step, saved_at: nowMs, draft };
  try {
    storage.setItem(draftKey(pendingId), JSON.stringify(saved));
  } catch {
    // A full or disabled storage only costs the operator the draft on a reload.
  }
}

export function clearDraft(storage: DraftStorage, pendingId: string): void {
  try {
    storage.removeItem(draftKey(pendingId));
  } catch {
    // Nothing to clear where nothing can be stored.
  }
}

/**
 * A saved draft made fit for the questions as they are: unknown questions and options dropped,
 * options in declaration order, one option where one is allowed, text only where a text box is,
 * the kandev tool's pick-or-text exclusion, the text cap, and the step within range.
 */
export function restoreDraft(
  source: ClarificationSource,
  questions: readonly Question[],
  saved: SavedDraft | null,
): { step: number; draft: Draft } | null {
  if (!saved) return null;
  const draft = emptyDraft([...questions]);
  for (const q of questions) {
    const entry = saved.draft[q.id];
    if (!entry) continue;
    const wanted = new Set(entry.selected);
    let selected = q.options.filter((o) => wanted.has(o.id)).map((o) => o.id);
    if (!(source === "elicitation" && q.kind === "multi")) selected = selected.slice(0, 1);
    const customText = textBoxFor(source, q) === "none" ? "" : entry.customText.slice(0, customTextLimit(source));
    if (source === "kandev_tool" && customText.trim()) selected = [];
    draft[q.id] = { selected, customText };
  }
  const step = Math.min(saved.step, Math.max(0, questions.length - 1));
  return { step, draft };
}

/** Drops every saved draft older than `maxAgeMs` or unreadable, so storage does not fill with questions nobody came back to. */
export function pruneDrafts(storage: DraftStorage, nowMs: number, maxAgeMs = DRAFT_MAX_AGE_MS): void {
  try {
    const keys: string[] = [];
    for (let i = 0; i < storage.length; i++) {
      const key = storage.key(i);
      if (key?.startsWith(DRAFT_KEY_PREFIX)) keys.push(key);
    }
    for (const key of keys) {
      const saved = readDraft(storage, key.slice(DRAFT_KEY_PREFIX.length));
      if (!saved || nowMs - saved.saved_at > maxAgeMs) storage.removeItem(key);
    }
  } catch {
    // Best effort: a storage that fails here fails for drafts too, and they are ignored.
  }
}
