// Prompts sent while a turn runs (docs/API.md "Prompts while a turn runs"): where a new prompt
// goes, what "send now" does, and which queued prompt a turn's end sends. Pure: the session
// manager reads the facts and does what these say.
import type { SessionState } from "@kandev/protocol";

/** What the session is, as far as a prompt cares. */
export interface PromptFacts {
  state: SessionState;
  /** The session runs on this host's agentctl (and is not being torn down). */
  live: boolean;
  /** Its agentctl went away under it and its next prompt restarts it (interruption.ts isResumable). */
  resumable: boolean;
}

/**
 * `send`: a turn starts now with this prompt. `queue`: a turn runs (or the agent is starting), so
 * the prompt waits for it to end. `resume`: the session's agent is gone but it takes prompts: a
 * fresh agent starts with it. `refuse`: the session takes no more prompts (409).
 */
export type PromptRoute = "send" | "queue" | "resume" | "refuse";

export function routePrompt(s: PromptFacts): PromptRoute {
  if (!s.live) return s.resumable ? "resume" : "refuse";
  switch (s.state) {
    case "WAITING_FOR_INPUT":
      return "send";
    case "CREATED":
    case "STARTING":
    case "RUNNING":
      return "queue";
    case "COMPLETED":
    case "FAILED":
    case "CANCELLED":
      return "refuse";
    default: {
      const _x: never = s.state;
      return "refuse";
    }
  }
}

/**
 * "Send now" on a queued prompt. `cancel_turn`: it is marked to go first and the running turn is
 * cancelled (ACP session/cancel); it is sent when that turn ends. `mark`: the agent is still
 * starting, which is not cancelled (that would end the session): it goes first when the first turn
 * ends. `send` / `resume`: nothing runs, it is sent at once like a prompt. `refuse`: 409.
 */
export type SendNowRoute = "cancel_turn" | "mark" | "send" | "resume" | "refuse";

export function routeSendNow(s: PromptFacts & { agentUp: boolean }): SendNowRoute {
  const route = routePrompt(s);
  if (route !== "queue") return route;
  return s.state === "RUNNING" && s.agentUp ? "cancel_turn" : "mark";
}

/** How a session's turn ended, as the queue cares. */
export interface TurnEnd {
  /** ACP stop reason: `end_turn`, `max_tokens`, `refusal`, `cancelled`, ... */
  stopReason: string;
  /** The turn ended with an error (the agent failed the prompt). */
  failed: boolean;
}

/**
 * The queued prompt a turn's end sends, given the queue in its order (send-now ones first), or
 * undefined to keep the queue as it is. A prompt the operator asked to send now always goes. Else
 * the oldest goes after a turn that finished, whatever its stop reason; after a turn the operator
 * cancelled or that failed the queue is held, so the operator decides (send one now, or cancel
 * them). A session that failed, or whose agent went away, never reaches here: its queue is held too.
 */
export function nextQueuedPrompt<T extends { sendNow: boolean }>(queue: readonly T[], end: TurnEnd): T | undefined {
  const first = queue[0];
  if (first === undefined) return undefined;
  if (first.sendNow) return first;
  if (end.failed || end.stopReason === "cancelled") return undefined;
  return first;
}
