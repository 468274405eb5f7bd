// Relays one `ask_user_question_kandev` call to the backend as `kandev.ask_user_question` and turns
// the outcome into what the agent reads: the backend's text, or an error the MCP server reports as
// a tool error (the turn goes on; the agent decides what to do without an answer).
import { KANDEV_TOOL_NAME, KandevToolInputSchema, ProtocolError } from "@kandev/protocol";
import { BackendRequestError, type BackendRequests } from "../backend-requests.js";
import type { KandevToolRelay } from "./mcp-server.js";

export interface KandevRelayOptions {
  requests: BackendRequests;
  /** The ACP session a call belongs to: the running turn's, else the current one (null: none yet). */
  sessionId: () => string | null;
  /** Called just before the request goes out (agentctl sends the text streamed so far first). */
  beforeRequest?: () => void;
  /** Diagnostics: why a call got no answer (never the question text). */
  log?: (message: string) => void;
}

/** Builds the relay the MCP tool server calls for each tool call. */
export function createKandevRelay(opts: KandevRelayOptions): KandevToolRelay {
  return async (args, signal) => {
    // The MCP server validated already; parse again so the relay never forwards anything else.
    const input = KandevToolInputSchema.parse(args);
    const sessionId = opts.sessionId();
    opts.beforeRequest?.();
    try {
      const result = await opts.requests.request(
        "kandev.ask_user_question",
        { session_id: sessionId, questions: input.questions },
        { sessionId, signal },
      );
      return result.text;
    } catch (err) {
      const message = relayFailureMessage(err);
      opts.log?.(`agentctl: ${KANDEV_TOOL_NAME} got no answer: ${message}`);
      throw new Error(message);
    }
  };
}

/** The text the agent sees when its question could not be answered, with the code kept in it. */
export function relayFailureMessage(err: unknown): string {
  if (err instanceof ProtocolError || err instanceof BackendRequestError) return `${err.message} (${err.code})`;
  return err instanceof Error ? err.message : String(err);
}
