// Protocol side of one session on the agent stream: envelopes in, envelopes out. No pipes here
// (stdio-channel.ts) and no session routing (session-mux.ts).
import type { z } from "zod";
import {
  AGENT_ACTIONS,
  ProtocolError,
  errorFrame,
  parseEnvelope,
  responseFrame,
  toErrorPayload,
  type AgentActionName,
  type AgentActionResult,
  type Envelope,
} from "@kandev/protocol";

/** Parsed (defaults applied) params of an action. */
export type ActionParams<A extends AgentActionName> = z.output<(typeof AGENT_ACTIONS)[A]["params"]>;

/** One handler per action in AGENT_ACTIONS; the type makes a missing one a compile error. */
export type ActionHandlers = {
  [A in AgentActionName]: (params: ActionParams<A>) => Promise<AgentActionResult<A>> | AgentActionResult<A>;
};

export interface DispatcherOptions {
  /** Responses/errors from the backend to agentctl's own requests (BACKEND_ACTIONS); ignored when absent. */
  onPeerReply?: (frame: Envelope) => void;
  /** Where handler failures that are not ProtocolErrors are reported. */
  log?: (message: string) => void;
}

export interface Dispatcher {
  /** The actions this dispatcher serves (for the completeness test and agent.status tooling). */
  readonly actions: readonly AgentActionName[];
  /** Handles one raw frame; resolves to the frame to send back, or null when none is due. */
  handle(raw: string): Promise<Envelope | null>;
  /** Handles one frame already parsed as an envelope. */
  handleFrame(frame: Envelope): Promise<Envelope | null>;
}

function isAgentAction(action: string): action is AgentActionName {
  return Object.hasOwn(AGENT_ACTIONS, action);
}

/**
 * Best effort to answer a malformed frame under the id and session the sender used, so it can
 * fail its request.
 */
export function salvageIdAndAction(raw: string): { id: string | undefined; action: string; session: string | undefined } {
  const name = (v: unknown) => (typeof v === "string" && v.length > 0 && v.length <= 128 ? v : undefined);
  try {
    const v: unknown = JSON.parse(raw);
    if (v !== null && typeof v === "object") {
      const o = v as Record<string, unknown>;
      return { id: name(o.id), action: name(o.action) ?? "error", session: name(o.session) };
    }
  } catch {
    // not JSON: nothing to salvage
  }
  return { id: undefined, action: "error", session: undefined };
}

/** Builds the dispatcher that routes request envelopes to `handlers`, validating both directions. */
export function createDispatcher(handlers: ActionHandlers, options: DispatcherOptions = {}): Dispatcher {
  const log = options.log ?? (() => {});

  async function run<A extends AgentActionName>(action: A, payload: unknown): Promise<AgentActionResult<A>> {
    const spec = AGENT_ACTIONS[action];
    const params = spec.params.parse(payload ?? {}) as ActionParams<A>;
    const handler = handlers[action] as (p: ActionParams<A>) => Promise<AgentActionResult<A>> | AgentActionResult<A>;
    const result = await handler(params);
    const checked = spec.result.safeParse(result);
    if (!checked.success) {
      log(`agentctl: ${action} produced a result that fails its schema: ${checked.error.message}`);
      throw new ProtocolError("INTERNAL_ERROR", `${action} produced an invalid result`);
    }
    return checked.data as AgentActionResult<A>;
  }

  const dispatcher: Dispatcher = {
    actions: Object.keys(handlers) as AgentActionName[],
    async handle(raw) {
      let frame: Envelope;
      try {
        frame = parseEnvelope(raw);
      } catch (err) {
        const { id, action } = salvageIdAndAction(raw);
        return errorFrame(id, action, toErrorPayload(err));
      }
      return dispatcher.handleFrame(frame);
    },
    async handleFrame(frame) {
      if (frame.type === "response" || frame.type === "error") {
        options.onPeerReply?.(frame);
        return null;
      }
      if (frame.type === "notification") {
        return errorFrame(undefined, frame.action, {
          code: "BAD_REQUEST",
          message: "agentctl accepts requests, not notifications",
        });
      }
      if (frame.id === undefined) {
        return errorFrame(undefined, frame.action, { code: "BAD_REQUEST", message: "a request needs an id" });
      }
      if (!isAgentAction(frame.action)) {
        return errorFrame(frame.id, frame.action, {
          code: "UNKNOWN_ACTION",
          message: `unknown action "${frame.action}"`,
        });
      }
      try {
        return responseFrame(frame.id, frame.action, await run(frame.action, frame.payload));
      } catch (err) {
        if (!(err instanceof ProtocolError) && !(err instanceof Error && err.name === "ZodError")) {
          log(`agentctl: ${frame.action} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
        }
        return errorFrame(frame.id, frame.action, toErrorPayload(err));
      }
    },
  };
  return dispatcher;
}
