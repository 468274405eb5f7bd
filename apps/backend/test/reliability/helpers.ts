// Shared by the backend's reliability tests (docs/RELIABILITY.md): a board with elicitation on,
// its log captured, heap measurement after a forced GC, and the one consistency rule every race
// test checks: what the record says equals what the agent received on the wire.
import fs from "node:fs";
import v8 from "node:v8";
import vm from "node:vm";
import type { AgentActionName, Clarification, Envelope, Message } from "@kandev/protocol";
import { createLogger, type LogLevel, type Logger } from "../../src/logger.js";
import { AgentctlRecorder, type WireLine } from "../clarification-helpers.js";
import { api, eventually, startTestServer, type WsClient } from "../helpers.js";

export type Server = Awaited<ReturnType<typeof startTestServer>>;

/** Every line the board logged (JSON lines, as main.ts writes them to stderr). */
export class LogCapture {
  readonly lines: string[] = [];
  readonly logger: Logger;
  constructor(level: LogLevel = "debug") {
    this.logger = createLogger(level, (line) => {
      this.lines.push(line);
    });
  }
  text(): string {
    return this.lines.join("");
  }
}

/** Barrier seam: runs just before the board sends a request to an agentctl (same tick as the send). */
export interface BoardHooks {
  beforeAgentRequest?: (sessionId: string, action: AgentActionName, params: unknown) => void;
}

/** The board in-process with features.acpElicitation on, a recorder on its agent streams and its log captured. */
export async function startBoard(
  overrides: Parameters<typeof startTestServer>[0] = {},
): Promise<{ server: Server; rec: AgentctlRecorder; log: LogCapture; hooks: BoardHooks }> {
  const rec = new AgentctlRecorder();
  const log = new LogCapture();
  const hooks: BoardHooks = {};
  const server = await startTestServer({
    flagEnv: { "features.acpElicitation": true },
    onAgentRequest: (sessionId, action, params) => {
      rec.onAgentRequest(sessionId, action, params);
      hooks.beforeAgentRequest?.(sessionId, action, params);
    },
    onAgentEvent: rec.onAgentEvent,
    logger: log.logger,
    ...overrides,
  });
  return { server, rec, log, hooks };
}

let gcFn: (() => void) | null = null;
/** Forces a full garbage collection in this process (the test runner does not pass --expose-gc). */
export function gc(): void {
  if (gcFn === null) {
    v8.setFlagsFromString("--expose-gc");
    gcFn = vm.runInNewContext("gc") as () => void;
  }
  gcFn();
  gcFn();
}

/** Heap in use after a full GC, in MiB. */
export function heapAfterGcMiB(): number {
  gc();
  return process.memoryUsage().heapUsed / 1024 / 1024;
}

/** Resident set size of a live process, in MiB (Linux /proc). */
export function rssMiB(pid: number): number {
  const m = /VmRSS:\s+(\d+)\s+kB/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"));
  if (m === null) throw new Error(`no VmRSS for ${pid}`);
  return Number(m[1]) / 1024;
}

/** The clarifications of a session, optionally with one status. */
export async function clarificationsOf(base: string, sessionId: string, status?: Clarification["status"]): Promise<Clarification[]> {
  const q = status === undefined ? "" : `&status=${status}`;
  return (await api<Clarification[]>(base, "GET", `/api/v1/clarifications?session_id=${sessionId}${q}`)).body;
}

/** Waits until the session holds `count` pending clarifications; returns their pending ids. */
export async function waitForPending(base: string, sessionId: string, count: number, timeoutMs = 30_000): Promise<string[]> {
  return eventually(
    async () => {
      const pending = await clarificationsOf(base, sessionId, "pending");
      return pending.length >= count ? pending.map((c) => c.pending_id) : undefined;
    },
    `${count} pending clarification(s) in ${sessionId}`,
    timeoutMs,
  );
}

/** What the agent received for one elicitation/create ("none": no answer yet, or never). */
export type WireAction = "accept" | "decline" | "cancel" | "none";

/**
 * The consistency rule (docs/RELIABILITY.md §3): a settled record's status must be what the agent
 * received. answered <-> accept; declined / timed_out <-> decline; cancelled <-> cancel;
 * agent_disconnected <-> cancel or nothing (the agent or its agentctl went away first).
 */
export function consistent(status: Clarification["status"], wire: WireAction): boolean {
  switch (status) {
    case "answered":
      return wire === "accept";
    case "declined":
    case "timed_out":
      return wire === "decline";
    case "cancelled":
      return wire === "cancel";
    case "agent_disconnected":
      return wire === "cancel" || wire === "none";
    case "pending":
      return wire === "none";
    default: {
      const _x: never = status;
      return _x;
    }
  }
}

/** The action of each answer the agent received, in the order its requests were sent. */
export function wireActions(lines: WireLine[]): WireAction[] {
  const out = lines.filter((l) => l.dir === "out" && l.frame.method === "elicitation/create").map((l) => JSON.stringify(l.frame.id));
  return out.map((id) => {
    const hit = lines.find((l) => l.dir === "in" && l.frame.method === undefined && JSON.stringify(l.frame.id) === id);
    const action = (hit?.frame.result as { action?: WireAction } | undefined)?.action;
    return action ?? "none";
  });
}

/** `session.message.updated` frames a browser received for one message. */
export function updatesOf(ws: WsClient, messageId: string): Message[] {
  return ws.frames
    .filter((f: Envelope) => f.action === "session.message.updated" && (f.payload as { message: Message }).message.id === messageId)
    .map((f) => (f.payload as { message: Message }).message);
}

/** What the agent received for its elicitation/create carrying `toolCallId` (its last such request). */
export function wireActionFor(lines: WireLine[], toolCallId: string): WireAction {
  const req = lines.filter((l) => l.dir === "out" && l.frame.method === "elicitation/create" && l.frame.params?.toolCallId === toolCallId).at(-1);
  if (req === undefined) return "none";
  const id = JSON.stringify(req.frame.id);
  const hit = lines.find((l) => l.dir === "in" && l.frame.method === undefined && JSON.stringify(l.frame.id) === id);
  return (hit?.frame.result as { action?: WireAction } | undefined)?.action ?? "none";
}
