// Shared by the elicitation tests: builds raw `elicitation/create` params and maps them the way
// ElicitationManager.handleCreate does (request check, then schema mapping).
import type { Question } from "@kandev/protocol";
import { parseCreateRequest, type Parsed } from "../src/elicitation/request.js";
import { mapElicitation, type MappedElicitation } from "../src/elicitation/schema-map.js";

/** A form, session-scoped request with these properties (AskUserQuestion-like when toolCallId is set). */
export function formParams(
  properties: Record<string, unknown>,
  extra: { toolCallId?: string; message?: string; sessionId?: string } = {},
): Record<string, unknown> {
  return {
    mode: "form",
    sessionId: extra.sessionId ?? "sess-1",
    ...(extra.toolCallId === undefined ? {} : { toolCallId: extra.toolCallId }),
    message: extra.message ?? "Please answer the following questions.",
    requestedSchema: { type: "object", properties },
  };
}

/** Runs the same two steps handleCreate runs: request check, then schema mapping. */
export function mapRaw(raw: unknown): Parsed<MappedElicitation> {
  const request = parseCreateRequest(raw);
  return request.ok ? mapElicitation(request.value) : request;
}

/** Maps and asserts success, returning the questions. */
export function questionsOf(raw: unknown): Question[] {
  const mapped = mapRaw(raw);
  if (!mapped.ok) throw new Error(`expected a mapping, got decline ${mapped.reason}: ${mapped.detail}`);
  return mapped.value.questions;
}

/** `{const, title}` options from labels. */
export function opts(...labels: string[]): Array<{ const: string; title: string }> {
  return labels.map((l) => ({ const: l, title: l }));
}
