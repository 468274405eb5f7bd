// Helpers for the clarification integration tests: the mock agent's wire log, a profile that
// writes it, and a recorder of what the backend sent to / heard from each agentctl.
import fs from "node:fs";
import path from "node:path";
import type { AgentActionName, AgentProfile, Clarification, Message, Notification, Task } from "@kandev/protocol";
import type { AgentEventMessage } from "../src/executor/agentctl-client.js";
import { api, createTask, eventually, getMessages, getTask, type WsClient } from "./helpers.js";

interface Frame {
  id?: unknown;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: unknown;
}
export interface WireLine {
  dir: "in" | "out";
  frame: Frame;
  ts: number;
}

/** Every JSON-RPC frame the mock agent sent ("out") and received ("in"), in order. */
export function wireLog(file: string): WireLine[] {
  if (!fs.existsSync(file)) return [];
  return fs
    .readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim().length > 0)
    .map((l) => JSON.parse(l) as WireLine);
}

/** The answers the agent received to its `elicitation/create` requests (what reached ACP). */
export function elicitationAnswers(file: string): WireLine[] {
  const log = wireLog(file);
  const ids = new Set(log.filter((l) => l.dir === "out" && l.frame.method === "elicitation/create").map((l) => JSON.stringify(l.frame.id)));
  return log.filter((l) => l.dir === "in" && l.frame.method === undefined && ids.has(JSON.stringify(l.frame.id)));
}

/** `session/prompt` requests the agent received. */
export function promptsIn(file: string): WireLine[] {
  return wireLog(file).filter((l) => l.dir === "in" && l.frame.method === "session/prompt");
}

/** The ordered JSON-RPC methods of the exchange (requests and notifications, both directions). */
export function methodSequence(file: string): string[] {
  return wireLog(file)
    .filter((l) => l.frame.method !== undefined)
    .map((l) => `${l.dir} ${l.frame.method}`);
}

/** What the backend sent to and heard from every agentctl, per session (via the server's test seams). */
export class AgentctlRecorder {
  readonly requests: Array<{ sessionId: string; action: AgentActionName; params: unknown }> = [];
  readonly events: Array<{ sessionId: string; event: AgentEventMessage }> = [];
  onAgentRequest = (sessionId: string, action: AgentActionName, params: unknown): void => {
    this.requests.push({ sessionId, action, params });
  };
  onAgentEvent = (sessionId: string, event: AgentEventMessage): void => {
    this.events.push({ sessionId, event });
  };
  respondsOf(sessionId: string): Array<{ pending_id: string }> {
    return this.requests
      .filter((r) => r.sessionId === sessionId && r.action === "agent.elicitations.respond")
      .map((r) => r.params as { pending_id: string });
  }
  actionsOf(sessionId: string): AgentActionName[] {
    return this.requests.filter((r) => r.sessionId === sessionId).map((r) => r.action);
  }
  requestedIds(sessionId: string): string[] {
    return this.events
      .filter((e) => e.sessionId === sessionId && e.event.name === "elicitation.requested")
      .map((e) => (e.event.payload as { pending_id: string }).pending_id);
  }
}

/** Creates a profile running the built-in mock agent with MOCK_AGENT_LOG, then a task on it. */
export async function startLoggedTask(
  base: string,
  dir: string,
  name: string,
  prompt: string,
): Promise<{ task: Task; sessionId: string; logFile: string }> {
  const logFile = path.join(dir, `${name}.jsonl`);
  const mock = (await api<AgentProfile[]>(base, "GET", "/api/v1/agent-profiles")).body.find((p) => p.id === "mock")!;
  const created = await api(base, "POST", "/api/v1/agent-profiles", { id: name, name, command: mock.command, env: { MOCK_AGENT_LOG: logFile } });
  if (created.status !== 201) throw new Error(`profile ${name}: ${created.status} ${JSON.stringify(created.body)}`);
  const { task, session } = await createTask(base, prompt, { agent_profile_id: name, title: `Task ${name}` });
  return { task, sessionId: session.id, logFile };
}

export const clarificationMessages = async (base: string, sessionId: string): Promise<Message[]> =>
  (await getMessages(base, sessionId)).filter((m) => m.type === "clarification_request");

/** Waits until the session has `count` clarification messages. */
export async function waitForClarifications(base: string, sessionId: string, count = 1, timeoutMs?: number): Promise<Message[]> {
  return eventually(
    async () => {
      const ms = await clarificationMessages(base, sessionId);
      return ms.length >= count ? ms : undefined;
    },
    `${count} clarification message(s)`,
    timeoutMs,
  );
}

export async function getClarification(base: string, pendingId: string): Promise<Clarification> {
  return (await api<Clarification>(base, "GET", `/api/v1/clarifications/${pendingId}`)).body;
}

export async function waitForClarificationStatus(
  base: string,
  pendingId: string,
  status: Clarification["status"],
  timeoutMs?: number,
): Promise<Clarification> {
  return eventually(
    async () => {
      const c = await getClarification(base, pendingId);
      return c.status === status ? c : undefined;
    },
    `clarification ${pendingId} to be ${status}`,
    timeoutMs,
  );
}

export const respond = (base: string, pendingId: string, body: unknown) =>
  api<{ success?: true; status?: string; error?: { code: string; message: string; details?: unknown } }>(
    base,
    "POST",
    `/api/v1/clarifications/${pendingId}/respond`,
    body,
  );

/** The agent's text output of a session (everything its messages said). */
export async function agentText(base: string, sessionId: string): Promise<string> {
  return (await getMessages(base, sessionId))
    .filter((m) => m.author_type === "agent" && m.type === "text")
    .map((m) => m.content)
    .join("");
}

export async function waitForTask(base: string, id: string, pred: (t: Task) => boolean, what: string, timeoutMs?: number): Promise<Task> {
  return eventually(
    async () => {
      const t = await getTask(base, id);
      return pred(t) ? t : undefined;
    },
    what,
    timeoutMs,
  );
}

/** The `notification` frames a browser received. */
export function notificationsOf(ws: WsClient): Notification[] {
  return ws.frames.filter((f) => f.action === "notification").map((f) => (f.payload as { notification: Notification }).notification);
}
