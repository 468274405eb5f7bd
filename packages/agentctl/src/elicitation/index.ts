/**
 * ACP form elicitation for agentctl: `elicitation/create` from the agent becomes a pending
 * clarification for the operator, and the operator's answer becomes exactly one ACP response.
 *
 * Wiring (agentctl's ACP client):
 *   client.onRequest(acp.methods.client.elicitation.create, rawElicitationParams,
 *     ({ params, signal }) => manager.handleCreate(params, signal));
 * Passing `rawElicitationParams` replaces the SDK's own params schema, so malformed bodies reach
 * `handleCreate` and are declined instead of being answered -32602 by the SDK (see INVARIANTS.md).
 */
export { ElicitationManager, checkElicitationTimeouts, MAX_ANSWER_TIMEOUT_MS, MAX_PENDING_ELICITATIONS } from "./manager.js";
export type { ElicitationClock, ElicitationEmit, ElicitationManagerOptions, SettleReason } from "./manager.js";
export type { ElicitationResponse, ContentValue } from "./answers.js";
export { buildResponse } from "./answers.js";
export { mapElicitation } from "./schema-map.js";
export type { MappedElicitation } from "./schema-map.js";
export { parseCreateRequest } from "./request.js";
export type { DeclineReason, FormRequest } from "./request.js";
export { compareKeys, sortKeys } from "./key-order.js";

/**
 * Identity params parser for the SDK: hands `handleCreate` the params exactly as received, so our
 * own validator (not the SDK's zod schema) decides, and declines what it cannot use.
 */
export function rawElicitationParams(raw: unknown): unknown {
  return raw;
}
