// PLACEHOLDER owned by the elicitation work (issue 3): replaced by the real manager. Until then it
// fails closed: every elicitation/create is declined and nothing reaches the operator.
import type { ElicitationRespondParams, Features } from "@kandev/protocol";
import { ProtocolError } from "@kandev/protocol";

export type ElicitationEmit = (
  event: "elicitation.requested" | "elicitation.settled",
  payload: Record<string, unknown>,
) => void;

export interface ElicitationManagerOptions {
  features: () => Features;
  answerTimeoutMs: number;
  emit: ElicitationEmit;
  newId?: () => string;
}

/** ACP `elicitation/create` response as agentctl sends it. */
export type ElicitationResponse =
  | { action: "accept"; content: Record<string, string | string[]> }
  | { action: "decline" }
  | { action: "cancel" };

export class ElicitationManager {
  constructor(private readonly opts: ElicitationManagerOptions) {}
  async handleCreate(_params: unknown, _signal: AbortSignal): Promise<ElicitationResponse> {
    return { action: "decline" };
  }
  respond(params: ElicitationRespondParams): { success: true } {
    throw new ProtocolError("NOT_FOUND", `no pending elicitation ${params.pending_id}`);
  }
  cancelSession(_sessionId: string, _reason: string): void {}
  cancelAll(_reason: string): void {}
  get pendingCount(): number {
    return 0;
  }
}
