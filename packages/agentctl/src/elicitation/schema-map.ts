/**
 * `requestedSchema.properties` -> the operator's questions (spec "Schema -> questions mapping").
 *
 * Rules, first match wins (order matters: a companion is itself a plain string):
 *   1. `{type: "string", oneOf: [...]}`        -> single-select question
 *   2. `{type: "array", items: {anyOf: [...]}}` -> multi-select question
 *   3. `{type: "string"}` with `_meta._askUserQuestionCustomAnswer.questionId` -> companion
 *   4. `{type: "string"}` with neither         -> free-text question, zero options
 *   5. anything else                            -> ignored
 * Rules 1 and 2 also accept the ACP/MCP untitled forms `enum: [...]` and `items: {enum: [...]}`
 * (option label = the value): treating those as free text would let the operator send values the
 * agent's own schema forbids. A question whose enum is empty becomes a `text` question.
 * Companions are resolved before ordering (D2; A1 adds the unmarked `<key>_custom` form that bridge
 * 0.82+ sends), and questions are ordered by D1, never by declaration order.
 */
import type { Companion, Option, Question } from "@kandev/protocol";
import { LIMITS } from "@kandev/protocol";
import { compareKeys } from "./key-order.js";
import { decline, isRecord, type FormRequest, type Parsed } from "./request.js";

/** `_meta` key the bridge stamps on a custom-answer companion (claude-agent-acp < 0.82). */
export const CUSTOM_ANSWER_MARKER = "_askUserQuestionCustomAnswer";
/** Suffix of the unmarked companion (A1): `question_0_custom` belongs to `question_0`. */
export const UNMARKED_COMPANION_SUFFIX = "_custom";

/** An elicitation ready to show: the request's scope and message plus its ordered questions. */
export interface MappedElicitation {
  sessionId: string;
  toolCallId: string | null;
  message: string;
  /** In D1 order; `id` is the schema key verbatim, `companion.id` the companion key verbatim. */
  questions: Question[];
}

type Labels = { title?: string; description?: string };

/** One property after rules 1-5, before companions are attached. */
export type Classified =
  | ({ role: "question"; key: string; rule: 1 | 2 | 4; kind: "single" | "multi" | "text"; options: Option[] } & Labels)
  | ({ role: "companion"; key: string; target: string | null } & Labels)
  | { role: "ignored"; key: string; why: string }
  | { role: "too_many_options"; key: string; count: number };

function field(obj: Record<string, unknown>, key: string): unknown {
  return Object.hasOwn(obj, key) ? obj[key] : undefined;
}

/** Absent, null, non-string and blank text all count as "not present". */
function text(value: unknown): string | undefined {
  return typeof value === "string" && value.trim().length > 0 ? value : undefined;
}

/** Display text is bounded so the event always fits its schema; ids are never truncated. */
export function clip(value: string, max: number): string {
  return value.length <= max ? value : `${value.slice(0, max - 1)}…`;
}

function labelsOf(schema: Record<string, unknown>): Labels {
  const title = text(field(schema, "title"));
  const description = text(field(schema, "description"));
  return {
    ...(title === undefined ? {} : { title: clip(title, LIMITS.maxLabelChars) }),
    ...(description === undefined ? {} : { description: clip(description, LIMITS.maxPromptChars) }),
  };
}

type OptionsResult = { ok: true; options: Option[] } | { ok: false; why: string } | { ok: "too_many"; count: number };

/** Titled options (`oneOf` / `items.anyOf`): each entry needs a string `const`; title is optional. */
function titledOptions(entries: unknown): OptionsResult {
  if (!Array.isArray(entries)) return { ok: false, why: "options are not an array" };
  if (entries.length > LIMITS.maxOptionsPerQuestion) return { ok: "too_many", count: entries.length };
  const options: Option[] = [];
  const seen = new Set<string>();
  for (const entry of entries) {
    if (!isRecord(entry)) return { ok: false, why: "an option is not an object" };
    const id = field(entry, "const");
    if (typeof id !== "string") return { ok: false, why: "an option has no string const" };
    if (id.length > LIMITS.maxIdChars) return { ok: false, why: "an option const is too long to answer" };
    // An empty const could only be sent as "", which content never carries; a repeated const is the
    // same answer on the wire, so the first declaration wins.
    if (id.length === 0 || seen.has(id)) continue;
    seen.add(id);
    const label = text(field(entry, "title")) ?? id;
    const description = text(field(entry, "description"));
    options.push({
      id,
      label: clip(label, LIMITS.maxLabelChars),
      ...(description === undefined ? {} : { description: clip(description, LIMITS.maxPromptChars) }),
    });
  }
  return { ok: true, options };
}

/** Untitled options (`enum: ["a", "b"]`): the value is both id and label. */
function untitledOptions(values: unknown): OptionsResult {
  if (!Array.isArray(values)) return { ok: false, why: "enum is not an array" };
  if (!values.every((v) => typeof v === "string")) return { ok: false, why: "enum holds a non-string" };
  return titledOptions(values.map((v) => ({ const: v })));
}

function markerTarget(schema: Record<string, unknown>): { marked: false } | { marked: true; target: string | null } {
  const meta = field(schema, "_meta");
  if (!isRecord(meta)) return { marked: false };
  const marker = field(meta, CUSTOM_ANSWER_MARKER);
  if (!isRecord(marker)) return { marked: false };
  const target = field(marker, "questionId");
  return { marked: true, target: typeof target === "string" && target.length > 0 ? target : null };
}

function fromOptions(key: string, rule: 1 | 2, result: OptionsResult, labels: Labels): Classified {
  if (result.ok === "too_many") return { role: "too_many_options", key, count: result.count };
  if (!result.ok) return { role: "ignored", key, why: result.why };
  // An empty enum leaves nothing to pick: the operator answers it by typing (spec D10 / rule 4).
  const kind = result.options.length === 0 ? "text" : rule === 1 ? "single" : "multi";
  return { role: "question", key, rule, kind, options: result.options, ...labels };
}

/** Applies rules 1-5 to one property. Never throws, whatever the value. */
export function classifyProperty(key: string, value: unknown): Classified {
  if (key.length === 0 || key.length > LIMITS.maxIdChars) return { role: "ignored", key, why: "key cannot be answered" };
  if (!isRecord(value)) return { role: "ignored", key, why: "property schema is not an object" };
  const type = field(value, "type");
  const labels = labelsOf(value);
  if (type === "string") {
    const oneOf = field(value, "oneOf");
    if (oneOf !== undefined && oneOf !== null) return fromOptions(key, 1, titledOptions(oneOf), labels);
    const enumValues = field(value, "enum");
    if (enumValues !== undefined && enumValues !== null) {
      return fromOptions(key, 1, untitledOptions(enumValues), labels);
    }
    const marker = markerTarget(value);
    if (marker.marked) return { role: "companion", key, target: marker.target, ...labels };
    return { role: "question", key, rule: 4, kind: "text", options: [], ...labels };
  }
  if (type === "array") {
    const items = field(value, "items");
    if (!isRecord(items)) return { role: "ignored", key, why: "array property without items" };
    const anyOf = field(items, "anyOf");
    if (anyOf !== undefined && anyOf !== null) return fromOptions(key, 2, titledOptions(anyOf), labels);
    const enumValues = field(items, "enum");
    if (enumValues !== undefined && enumValues !== null) {
      return fromOptions(key, 2, untitledOptions(enumValues), labels);
    }
    return { role: "ignored", key, why: "array items carry no options" };
  }
  return { role: "ignored", key, why: `type ${typeof type === "string" ? type.slice(0, 32) : typeof type} is not mapped` };
}

type QuestionEntry = Extract<Classified, { role: "question" }>;
type CompanionEntry = Extract<Classified, { role: "companion" }>;

function toCompanion(entry: Labels & { key: string }): Companion {
  return {
    id: entry.key,
    ...(entry.title === undefined ? {} : { title: entry.title }),
    ...(entry.description === undefined ? {} : { description: entry.description }),
  };
}

/**
 * D2 + A1: attaches each question's companion. A marker names its question; of several markers
 * naming one question the key first in D1 order wins; a marker naming no question is ignored. Only
 * when the request has a toolCallId (AskUserQuestion) and a question has no marked companion, an
 * unmarked plain-string `<key>_custom` whose sibling `<key>` is a single/multi question is its
 * companion instead of a question of its own.
 */
function attachCompanions(questions: Map<string, QuestionEntry>, companions: CompanionEntry[], hasToolCallId: boolean): Map<string, Companion> {
  const attached = new Map<string, Companion>();
  for (const companion of [...companions].sort((a, b) => compareKeys(a.key, b.key))) {
    if (companion.target === null || !questions.has(companion.target) || attached.has(companion.target)) continue;
    attached.set(companion.target, toCompanion(companion));
  }
  if (!hasToolCallId) return attached;
  for (const key of [...questions.keys()].sort(compareKeys)) {
    const entry = questions.get(key);
    if (entry === undefined || entry.rule !== 4) continue;
    if (!key.endsWith(UNMARKED_COMPANION_SUFFIX) || attached.has(key)) continue;
    const siblingKey = key.slice(0, -UNMARKED_COMPANION_SUFFIX.length);
    const sibling = questions.get(siblingKey);
    if (sibling === undefined || sibling.rule === 4 || attached.has(siblingKey)) continue;
    attached.set(siblingKey, toCompanion(entry));
    questions.delete(key);
  }
  return attached;
}

/** D10: description, else the message when it is the only question, else title, else the key. */
function promptOf(entry: QuestionEntry, message: string, onlyQuestion: boolean): string {
  const prompt = entry.description ?? (onlyQuestion ? text(message) : undefined) ?? entry.title ?? entry.key;
  return clip(prompt, LIMITS.maxPromptChars);
}

/** Maps a validated form request to questions, or says why it must be declined. Never throws. */
export function mapElicitation(request: FormRequest): Parsed<MappedElicitation> {
  if (request.properties.size > LIMITS.maxQuestions) {
    return decline("too_many_properties", `${request.properties.size} properties (at most ${LIMITS.maxQuestions})`);
  }
  const questions = new Map<string, QuestionEntry>();
  const companions: CompanionEntry[] = [];
  for (const [key, value] of request.properties) {
    const entry = classifyProperty(key, value);
    switch (entry.role) {
      case "question":
        questions.set(key, entry);
        break;
      case "companion":
        companions.push(entry);
        break;
      case "too_many_options":
        return decline("too_many_options", `property has ${entry.count} options (at most ${LIMITS.maxOptionsPerQuestion})`);
      case "ignored":
        break;
      default: {
        const unreachable: never = entry;
        return unreachable;
      }
    }
  }
  const attached = attachCompanions(questions, companions, request.toolCallId !== null);
  const keys = [...questions.keys()].sort(compareKeys);
  if (keys.length === 0) return decline("no_questions", "the schema maps to zero questions");
  const mapped = keys.map((key): Question => {
    const entry = questions.get(key) as QuestionEntry;
    const companion = attached.get(key);
    return {
      id: key,
      kind: entry.kind,
      ...(entry.title === undefined ? {} : { title: entry.title }),
      prompt: promptOf(entry, request.message, keys.length === 1),
      options: entry.options,
      ...(companion === undefined ? {} : { companion }),
    };
  });
  return {
    ok: true,
    // The message is display text: clipped like a prompt, so one request cannot carry megabytes
    // into the event, the database and every browser.
    value: { sessionId: request.sessionId, toolCallId: request.toolCallId, message: clip(request.message, LIMITS.maxPromptChars), questions: mapped },
  };
}
