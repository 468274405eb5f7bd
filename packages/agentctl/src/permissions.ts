// Permission requests from the agent, parked until the operator answers (or auto-approved).
import { randomUUID } from "node:crypto";
import type * as acp from "@agentclientprotocol/sdk";
import { ProtocolError, type AgentEvent } from "@kandev/protocol";

export interface PermissionBrokerOptions {
  emitRequested: (payload: AgentEvent<"permission.requested">) => void;
  emitSettled: (payload: AgentEvent<"permission.settled">) => void;
  /** Read at request time: `auto_approve_permissions` from agent.configure. */
  autoApprove: () => boolean;
  newId?: () => string;
}

interface Pending {
  sessionId: string;
  options: readonly acp.PermissionOption[];
  finish: (response: acp.RequestPermissionResponse, settled: AgentEvent<"permission.settled">) => void;
}

/** The option auto-approve picks: the first allow option, or null when there is none. */
export function firstAllowOption(options: readonly acp.PermissionOption[]): acp.PermissionOption | null {
  return options.find((o) => o.kind === "allow_once" || o.kind === "allow_always") ?? null;
}

/** Holds the open `session/request_permission` requests, keyed by a UUID pending id. */
export class PermissionBroker {
  private readonly pending = new Map<string, Pending>();
  private readonly newId: () => string;

  constructor(private readonly opts: PermissionBrokerOptions) {
    this.newId = opts.newId ?? randomUUID;
  }

  get pendingCount(): number {
    return this.pending.size;
  }

  pendingForSession(sessionId: string): number {
    let n = 0;
    for (const p of this.pending.values()) if (p.sessionId === sessionId) n += 1;
    return n;
  }

  /** Handles one ACP permission request; resolves with the answer to send back to the agent. */
  request(params: acp.RequestPermissionRequest, signal: AbortSignal): Promise<acp.RequestPermissionResponse> {
    if (this.opts.autoApprove()) {
      const allow = firstAllowOption(params.options);
      if (allow !== null) return Promise.resolve({ outcome: { outcome: "selected", optionId: allow.optionId } });
    }
    const pendingId = this.newId();
    return new Promise((resolve) => {
      const onAbort = () => this.settle(pendingId, { outcome: { outcome: "cancelled" } }, { outcome: "cancelled", reason: "agent_cancelled" });
      this.pending.set(pendingId, {
        sessionId: params.sessionId,
        options: params.options,
        finish: (response, settled) => {
          signal.removeEventListener("abort", onAbort);
          resolve(response);
          this.opts.emitSettled(settled);
        },
      });
      this.opts.emitRequested({
        pending_id: pendingId,
        session_id: params.sessionId,
        tool_call_id: params.toolCall.toolCallId ?? null,
        title: params.toolCall.title ?? "Permission requested",
        options: params.options.map((o) => ({ option_id: o.optionId, name: o.name, kind: o.kind })),
      });
      if (signal.aborted) onAbort();
      else signal.addEventListener("abort", onAbort, { once: true });
    });
  }

  /** The operator's answer (`agent.permissions.respond`). */
  respond(params: { pending_id: string; option_id?: string | undefined; cancelled?: boolean | undefined }): { success: true } {
    const p = this.pending.get(params.pending_id);
    if (p === undefined) throw new ProtocolError("NOT_FOUND", `no pending permission ${params.pending_id}`);
    if (params.cancelled === true) {
      if (params.option_id !== undefined) {
        throw new ProtocolError("VALIDATION_ERROR", "give either option_id or cancelled: true, not both");
      }
      this.settle(params.pending_id, { outcome: { outcome: "cancelled" } }, { outcome: "cancelled", reason: "operator" });
      return { success: true };
    }
    if (params.option_id === undefined) throw new ProtocolError("VALIDATION_ERROR", "option_id is required unless cancelled is true");
    if (!p.options.some((o) => o.optionId === params.option_id)) {
      throw new ProtocolError("VALIDATION_ERROR", `option_id "${params.option_id}" is not one of this request's options`, {
        options: p.options.map((o) => o.optionId),
      });
    }
    this.settle(
      params.pending_id,
      { outcome: { outcome: "selected", optionId: params.option_id } },
      { outcome: "selected", option_id: params.option_id, reason: "operator" },
    );
    return { success: true };
  }

  /** Answers every pending request of a session `cancelled` (turn cancel). */
  cancelSession(sessionId: string, reason: string): void {
    for (const [id, p] of [...this.pending]) {
      if (p.sessionId === sessionId) this.settle(id, { outcome: { outcome: "cancelled" } }, { outcome: "cancelled", reason });
    }
  }

  /** Answers every pending request `cancelled` (shutdown, agent exit). */
  cancelAll(reason: string): void {
    for (const id of [...this.pending.keys()]) this.settle(id, { outcome: { outcome: "cancelled" } }, { outcome: "cancelled", reason });
  }

  private settle(pendingId: string, response: acp.RequestPermissionResponse, settled: Omit<AgentEvent<"permission.settled">, "pending_id">): void {
    const p = this.pending.get(pendingId);
    if (p === undefined) return; // already settled: the first answer wins
    this.pending.delete(pendingId);
    p.finish(response, { pending_id: pendingId, ...settled });
  }
}
