// What one probe run saw, and how it is printed: alone, or two runs (elicitation off / on) side by
// side with their method sequences aligned. Pure: no I/O.
import { sequenceLines, type WireEntry } from "./wire.js";

export interface ToolCallSeen {
  toolCallId: string;
  title: string | null;
  kind: string | null;
  /** Every status in arrival order (from tool_call and tool_call_update). */
  statuses: string[];
  /** The content kinds sent (diff, content, terminal, ...), each once, first seen first. */
  contentKinds: string[];
  /** Which of locations, rawInput, rawOutput came with something in them. */
  details: string[];
}

export interface ProbeRun {
  elicitation: "on" | "off";
  command: string[];
  clientCapabilities: unknown;
  agentCapabilities: unknown;
  sessionId: string | null;
  sequence: WireEntry[];
  /** Every `elicitation/create` in full, with what the probe answered. */
  elicitations: Array<{ params: unknown; response: unknown }>;
  permissions: Array<{ params: unknown; response: unknown }>;
  toolCalls: ToolCallSeen[];
  /** Each `plan` update's entries, as `status content` lines. */
  plans: string[][];
  /** What the agent said about its session: session/new's modes and configOptions, its state updates. */
  sessionState: SessionStateSeen;
  agentText: string;
  stopReason: string | null;
  /** Set when the run did not reach a stop reason: which step failed and why. */
  error: { phase: string; message: string } | null;
}

/** Session state as the agent sent it (raw ACP shapes: issue 33 asks to check them here). */
export interface SessionStateSeen {
  modes: unknown;
  configOptions: unknown;
  /** The last update of each state kind, and how many of that kind arrived. */
  updates: Record<string, { count: number; last: unknown }>;
}

export const STATE_UPDATE_KINDS = ["current_mode_update", "config_option_update", "available_commands_update", "usage_update", "session_info_update"];

export function emptySessionState(): SessionStateSeen {
  return { modes: null, configOptions: null, updates: {} };
}

/** Folds a session/update into the session state seen so far (other kinds are ignored). */
export function noteSessionState(state: SessionStateSeen, update: Record<string, unknown>): void {
  const kind = update.sessionUpdate;
  if (typeof kind !== "string" || !STATE_UPDATE_KINDS.includes(kind)) return;
  const { sessionUpdate: _kind, ...rest } = update;
  state.updates[kind] = { count: (state.updates[kind]?.count ?? 0) + 1, last: rest };
}

function renderSessionState(s: SessionStateSeen): string[] {
  const out = ["", "session state:"];
  out.push(`  modes (session/new): ${JSON.stringify(s.modes)}`);
  out.push(`  configOptions (session/new): ${JSON.stringify(s.configOptions)}`);
  for (const kind of STATE_UPDATE_KINDS) {
    const seen = s.updates[kind];
    out.push(seen === undefined ? `  ${kind}: none` : `  ${kind} ×${seen.count}, last: ${JSON.stringify(seen.last)}`);
  }
  return out;
}

/** Folds a session/update into the tool calls seen so far (first appearance order). */
export function noteToolCall(calls: ToolCallSeen[], update: Record<string, unknown>): void {
  const kind = update.sessionUpdate;
  if (kind !== "tool_call" && kind !== "tool_call_update") return;
  const id = typeof update.toolCallId === "string" ? update.toolCallId : "(no id)";
  let call = calls.find((c) => c.toolCallId === id);
  if (call === undefined) {
    call = { toolCallId: id, title: null, kind: null, statuses: [], contentKinds: [], details: [] };
    calls.push(call);
  }
  if (typeof update.title === "string") call.title = update.title;
  if (typeof update.kind === "string") call.kind = update.kind;
  if (typeof update.status === "string") call.statuses.push(update.status);
  const once = (list: string[], v: string) => {
    if (!list.includes(v)) list.push(v);
  };
  if (Array.isArray(update.content)) {
    for (const item of update.content as Array<{ type?: unknown }>) once(call.contentKinds, String(item?.type));
  }
  if (Array.isArray(update.locations) && update.locations.length > 0) once(call.details, "locations");
  for (const key of ["rawInput", "rawOutput"]) {
    const v = update[key];
    const empty = v === undefined || v === null || (typeof v === "object" && Object.keys(v).length === 0);
    if (!empty) once(call.details, key);
  }
}

/** Notes a `plan` update's entries (anything else is ignored). */
export function notePlan(plans: string[][], update: Record<string, unknown>): void {
  if (update.sessionUpdate !== "plan" || !Array.isArray(update.entries)) return;
  plans.push((update.entries as Array<{ status?: unknown; content?: unknown }>).map((e) => `${String(e.status)} ${String(e.content)}`));
}

/** A row of the side-by-side diff: the same line on both sides, or a line on one side only. */
export type DiffRow = { same: true; line: string } | { same: false; left: string | null; right: string | null };

/** Aligns two sequences by their longest common subsequence. */
export function alignSequences(a: readonly string[], b: readonly string[]): DiffRow[] {
  const n = a.length;
  const m = b.length;
  const lcs: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i -= 1) {
    for (let j = m - 1; j >= 0; j -= 1) {
      lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
    }
  }
  const rows: DiffRow[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) {
      rows.push({ same: true, line: a[i]! });
      i += 1;
      j += 1;
    } else if (j >= m || (i < n && lcs[i + 1]![j]! >= lcs[i]![j + 1]!)) {
      rows.push({ same: false, left: a[i]!, right: null });
      i += 1;
    } else {
      rows.push({ same: false, left: null, right: b[j]! });
      j += 1;
    }
  }
  return rows;
}

const json = (v: unknown) => JSON.stringify(v, null, 2);
const indent = (text: string, pad = "    ") => text.replace(/^/gm, pad);

/** The human-readable report of one run. */
export function renderRun(run: ProbeRun): string {
  const out: string[] = [];
  out.push(`== ACP probe: elicitation ${run.elicitation} ==`);
  out.push(`agent command: ${run.command.join(" ")}`);
  if (run.error?.phase === "start") {
    out.push(`error: ${run.error.message}`);
    return out.join("\n");
  }
  out.push(`clientCapabilities: ${JSON.stringify(run.clientCapabilities)}`);
  out.push(`agentCapabilities: ${JSON.stringify(run.agentCapabilities)}`);
  out.push("", "method sequence (-> client to agent, <- agent to client):");
  for (const line of sequenceLines(run.sequence)) out.push(`  ${line}`);
  out.push("", `elicitation/create frames: ${run.elicitations.length}`);
  for (const [i, e] of run.elicitations.entries()) {
    out.push(`  #${i + 1} params:`, indent(json(e.params)), `  #${i + 1} answered: ${JSON.stringify(e.response)}`);
  }
  if (run.permissions.length > 0) {
    out.push("", `permission requests: ${run.permissions.length}`);
    for (const p of run.permissions) out.push(`  ${JSON.stringify(p.params)} -> ${JSON.stringify(p.response)}`);
  }
  out.push("", `tool calls: ${run.toolCalls.length}`);
  for (const c of run.toolCalls) {
    out.push(`  ${c.toolCallId} ${JSON.stringify(c.title)} kind=${c.kind ?? "-"} status: ${c.statuses.join(" -> ") || "-"}`);
    out.push(`    content: ${c.contentKinds.join(", ") || "-"}; sent: ${c.details.join(", ") || "-"}`);
  }
  out.push("", `plan updates: ${run.plans.length}`);
  for (const [i, p] of run.plans.entries()) out.push(`  #${i + 1}:`, ...p.map((e) => `    ${e}`));
  out.push(...renderSessionState(run.sessionState));
  out.push("", "agent text:", indent(run.agentText.length > 0 ? run.agentText : "(none)", "  "));
  out.push("", `stop reason: ${run.stopReason ?? "(none)"}`);
  if (run.error !== null) out.push(`error during ${run.error.phase}: ${run.error.message}`);
  return out.join("\n");
}

/** The two method sequences side by side; `=` same on both, `≠` only on one side. */
export function renderComparison(off: ProbeRun, on: ProbeRun): string {
  const rows = alignSequences(sequenceLines(off.sequence), sequenceLines(on.sequence));
  const leftWidth = Math.max(24, ...rows.map((r) => (r.same ? r.line.length : (r.left ?? "").length)));
  const out: string[] = ["== method sequences: elicitation off | on =="];
  out.push(`  ${"off".padEnd(leftWidth)} | on`);
  for (const r of rows) {
    if (r.same) out.push(`= ${r.line.padEnd(leftWidth)} | ${r.line}`);
    else out.push(`≠ ${(r.left ?? "").padEnd(leftWidth)} | ${r.right ?? ""}`);
  }
  const differing = rows.filter((r) => !r.same).length;
  out.push(differing === 0 ? "sequences: identical" : `sequences: ${differing} differing row(s)`);
  const capsSame = JSON.stringify(off.clientCapabilities) === JSON.stringify(on.clientCapabilities);
  out.push(
    capsSame
      ? "clientCapabilities: identical"
      : `clientCapabilities differ:\n  off: ${JSON.stringify(off.clientCapabilities)}\n  on:  ${JSON.stringify(on.clientCapabilities)}`,
  );
  out.push(`elicitation/create frames: off ${off.elicitations.length}, on ${on.elicitations.length}`);
  out.push(`tool calls: off ${off.toolCalls.length}, on ${on.toolCalls.length}`);
  out.push(`stop reason: off ${off.stopReason ?? "(none)"}, on ${on.stopReason ?? "(none)"}`);
  return out.join("\n");
}

/** The `--json` document. */
export function jsonReport(runs: ProbeRun[]): unknown {
  const doc: Record<string, unknown> = {
    runs: runs.map((r) => ({ ...r, methodSequence: sequenceLines(r.sequence) })),
  };
  if (runs.length === 2) {
    const rows = alignSequences(sequenceLines(runs[0]!.sequence), sequenceLines(runs[1]!.sequence));
    doc.comparison = { identicalSequences: rows.every((r) => r.same), rows };
  }
  return doc;
}
