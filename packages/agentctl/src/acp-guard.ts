/**
 * Bounds on what an agent may send over ACP, applied before the SDK sees a message. Pure.
 *
 * Size: agentctl's ndjson reader (@kandev/acp-stdio, with the SDK's rules) enforces `maxMessageBytes`
 * per line; a longer line fails the connection with MessageTooLargeError (ACP_MAX_FRAME_BYTES
 * instead of the SDK's 32 MiB default; session-controller.ts then stops the agent with a clear reason).
 *
 * Depth: JSON.parse reads any depth, but JSON.stringify recurses and throws RangeError a few
 * thousand levels down. The SDK answers an invalid envelope with -32600 carrying the *whole*
 * message as error data, so one deeply nested junk line made agentctl's writer throw and closed
 * the ACP connection (found by the fuzz suite). Messages nested deeper than ACP_MAX_JSON_DEPTH are
 * therefore replaced by a shallow stand-in that keeps what routing needs (id, method): a request
 * loses its params (elicitation/create is then declined, other methods fail -32602/-32601), a
 * response becomes an error for the request it answers, a notification is dropped, anything else
 * still gets the SDK's -32600 (without the echo).
 */

/** Longest ndjson line agentctl reads from an agent (the agent stream's own inbound cap). */
export const ACP_MAX_FRAME_BYTES = 8 * 1024 * 1024;
/** Deepest JSON nesting agentctl accepts from an agent (real ACP messages stay far below). */
export const ACP_MAX_JSON_DEPTH = 256;

/** True when `value` nests objects/arrays more than `limit` levels deep. Iterative: any depth is safe. */
export function exceedsDepth(value: unknown, limit: number): boolean {
  const stack: Array<{ v: unknown; depth: number }> = [{ v: value, depth: 1 }];
  while (stack.length > 0) {
    const { v, depth } = stack.pop()!;
    if (typeof v !== "object" || v === null) continue;
    if (depth > limit) return true;
    const children = Array.isArray(v) ? v : Object.values(v as Record<string, unknown>);
    for (const child of children) if (typeof child === "object" && child !== null) stack.push({ v: child, depth: depth + 1 });
  }
  return false;
}

function isJsonRpcId(value: unknown): value is string | number | null {
  return value === null || typeof value === "string" || (typeof value === "number" && Number.isFinite(value));
}

export type GuardResult =
  | { action: "pass" }
  | { action: "replace"; message: Record<string, unknown>; note: string }
  | { action: "drop"; note: string };

/** Decides what the SDK gets for one parsed message from the agent. */
export function guardAcpMessage(message: Record<string, unknown>, maxDepth = ACP_MAX_JSON_DEPTH): GuardResult {
  if (!exceedsDepth(message, maxDepth)) return { action: "pass" };
  const why = `nested deeper than ${maxDepth} levels`;
  const jsonrpc = typeof message.jsonrpc === "string" ? message.jsonrpc.slice(0, 16) : null;
  const id = message.id;
  const method = message.method;
  const hasId = Object.hasOwn(message, "id") && isJsonRpcId(id);
  if (typeof method === "string" && hasId) {
    return { action: "replace", message: { jsonrpc, id, method, params: null }, note: `request ${method.slice(0, 64)} ${why}: params dropped` };
  }
  if (typeof method === "string" && !Object.hasOwn(message, "id")) {
    return { action: "drop", note: `notification ${method.slice(0, 64)} ${why}: dropped` };
  }
  if (method === undefined && hasId) {
    return {
      action: "replace",
      message: { jsonrpc, id, error: { code: -32600, message: `response ${why}` } },
      note: `response ${why}: turned into an error`,
    };
  }
  return { action: "replace", message: { jsonrpc, kandev: `message ${why}` }, note: `invalid message ${why}: refused` };
}
