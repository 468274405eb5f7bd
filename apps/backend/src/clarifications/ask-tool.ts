/**
 * `ask_user_question_kandev`: the board's own MCP tool. Its rules are the ones that always shipped
 * (DECISIONS F3): 1-4 questions, 2-6 options each, single-select, every question answered, and a
 * selection and custom text exclude each other. Elicitation-backed records never come through here.
 */
import {
  KandevAskParamsSchema,
  KandevToolInputSchema,
  ProtocolError,
  type ClarificationAnswer,
  type KandevToolInput,
  type Question,
} from "@kandev/protocol";

export { KandevToolInputSchema };
export const KANDEV_CUSTOM_TEXT_MAX = 2_000;

/** Turns validated tool input into operator questions with stable, unique ids. */
export function toKandevQuestions(input: KandevToolInput): Question[] {
  const seen = new Set<string>();
  return input.questions.map((q, qi) => {
    let id = q.id ?? `q${qi + 1}`;
    if (seen.has(id)) id = `${id}_${qi + 1}`;
    seen.add(id);
    const optionIds = new Set<string>();
    const options = q.options.map((o, oi) => {
      let oid = o.id ?? `${id}_o${oi + 1}`;
      if (optionIds.has(oid)) oid = `${oid}_${oi + 1}`;
      optionIds.add(oid);
      return o.description ? { id: oid, label: o.label, description: o.description } : { id: oid, label: o.label };
    });
    return { id, kind: "single" as const, ...(q.title ? { title: q.title } : {}), prompt: q.prompt, options };
  });
}

/**
 * Same-questions identity for the ask-tool dedup: the session plus each question's prompt and
 * option labels, case- and whitespace-insensitive. Elicitations never use it (D4).
 */
export function kandevDedupKey(sessionId: string, questions: Question[]): string {
  const norm = (s: string) => s.trim().replace(/\s+/g, " ").toLowerCase();
  return JSON.stringify([sessionId, questions.map((q) => [norm(q.prompt), q.options.map((o) => norm(o.label))])]);
}

/** Returns a problem description, or null when the answer satisfies the tool's rules. */
export function checkKandevAnswer(questions: Question[], answer: ClarificationAnswer): string | null {
  if (answer.rejected) return answer.answers.length > 0 ? "a rejected bundle carries no answers" : null;
  const byId = new Map(questions.map((q) => [q.id, q]));
  const answered = new Set<string>();
  for (const a of answer.answers) {
    const q = byId.get(a.question_id);
    if (!q) return `unknown question_id "${a.question_id}"`;
    if (answered.has(a.question_id)) return `question "${a.question_id}" is answered twice`;
    answered.add(a.question_id);
    const text = a.custom_text?.trim() ?? "";
    if (text.length > KANDEV_CUSTOM_TEXT_MAX) return `custom text for "${a.question_id}" is over ${KANDEV_CUSTOM_TEXT_MAX} characters`;
    if (a.selected_options.length > 1) return `question "${a.question_id}" takes one option`;
    if (a.selected_options.length === 1 && text) return `question "${a.question_id}": choose an option or type an answer, not both`;
    if (a.selected_options.length === 0 && !text) return `question "${a.question_id}" has no answer`;
    const picked = a.selected_options[0];
    if (picked !== undefined && !q.options.some((o) => o.id === picked)) {
      return `"${picked}" is not an option of "${a.question_id}"`;
    }
  }
  const missing = questions.filter((q) => !answered.has(q.id)).map((q) => q.id);
  return missing.length ? `every question needs an answer; missing: ${missing.join(", ")}` : null;
}

/** The text the tool returns to the agent: each question with the operator's answer. */
export function formatKandevToolResult(questions: Question[], answer: ClarificationAnswer): string {
  if (answer.rejected) {
    const why = answer.reject_reason?.trim();
    return why ? `The user skipped these questions: ${why}` : "The user skipped these questions.";
  }
  const lines = questions.map((q) => {
    const a = answer.answers.find((x) => x.question_id === q.id);
    const picked = a?.selected_options[0];
    const label = picked !== undefined ? q.options.find((o) => o.id === picked)?.label : undefined;
    const value = label ?? a?.custom_text?.trim() ?? "";
    return `- ${q.prompt}\n  Answer: ${value}`;
  });
  return `The user answered:\n${lines.join("\n")}`;
}

/**
 * Validates a relayed `kandev.ask_user_question` request and returns its questions. Anything
 * outside the tool's rules is a VALIDATION_ERROR whose message the agent reads as the tool error,
 * so it names each broken rule and where.
 */
export function parseKandevAsk(payload: unknown): { sessionId: string | null; questions: Question[] } {
  const params = KandevAskParamsSchema.safeParse(payload);
  if (!params.success) {
    throw new ProtocolError("VALIDATION_ERROR", "kandev.ask_user_question needs {session_id, questions}", params.error.issues);
  }
  const input = KandevToolInputSchema.safeParse({ questions: params.data.questions });
  if (!input.success) {
    const problems = input.error.issues.map((i) => `${i.path.map(String).join(".") || "questions"}: ${i.message}`);
    throw new ProtocolError("VALIDATION_ERROR", `invalid ask_user_question_kandev input: ${problems.join("; ")}`, problems);
  }
  return { sessionId: params.data.session_id, questions: toKandevQuestions(input.data) };
}

/** What the agent reads when nobody answered within the wait (the record reads timed_out). */
export function kandevTimeoutText(waitMs: number): string {
  return `The operator did not answer in time (no answer within ${describeMs(waitMs)}). Continue with your best judgement, or ask again later.`;
}

function describeMs(ms: number): string {
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000} h`;
  if (ms % 60_000 === 0) return `${ms / 60_000} min`;
  if (ms % 1000 === 0) return `${ms / 1000} s`;
  return `${ms} ms`;
}
