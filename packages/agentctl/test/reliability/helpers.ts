// Shared by agentctl's reliability tests (docs/RELIABILITY.md): memory of a process, the mock
// agent's wire log, the fuzz scenario's report, and hand-written hostile agents.
import fs from "node:fs";
import path from "node:path";
import { fuzzCases, type FuzzCase, type FuzzTally } from "@kandev/mock-agent";
import type { Envelope } from "@kandev/protocol";
import { tempDir, turnText } from "../agentctl-process.js";
import type { StreamClient } from "../stream-client.js";

/** Resident set size of a live process, in MiB (Linux /proc). */
export function rssMiB(pid: number): number {
  const m = /VmRSS:\s+(\d+)\s+kB/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"));
  if (m === null) throw new Error(`no VmRSS for ${pid}`);
  return Number(m[1]) / 1024;
}

export type WireFrame = {
  id?: unknown;
  method?: string;
  params?: Record<string, unknown>;
  result?: unknown;
  error?: { code: number; message: string };
};
export type WireLine = { dir: "in" | "out"; frame: WireFrame; ts: number };

/** The mock agent's MOCK_AGENT_LOG, parsed (raw writes appear as `frame: {raw, bytes}`). */
export function wire(logFile: string): WireLine[] {
  if (!fs.existsSync(logFile)) return [];
  return fs
    .readFileSync(logFile, "utf8")
    .split("\n")
    .filter((l) => l.length > 0)
    .map((l) => JSON.parse(l) as WireLine);
}

/** The answers the agent received to its elicitation/create requests sent through the SDK. */
export function elicitationAnswers(lines: WireLine[]): WireFrame[] {
  const ids = new Set(lines.filter((l) => l.dir === "out" && l.frame.method === "elicitation/create").map((l) => JSON.stringify(l.frame.id)));
  return lines.filter((l) => l.dir === "in" && l.frame.method === undefined && ids.has(JSON.stringify(l.frame.id))).map((l) => l.frame);
}

/** Parses the `<prefix>: <json>` line the mock agent said during a turn. */
export function reportLine<T>(client: StreamClient, turnId: string, prefix: string): T | undefined {
  const line = turnText(client, turnId)
    .split("\n")
    .find((l) => l.startsWith(`${prefix}: `));
  return line === undefined ? undefined : (JSON.parse(line.slice(prefix.length + 2)) as T);
}

/** What a fuzz run owes, recomputed from the same seed: the answer every case must get. */
export interface FuzzExpectation {
  cases: FuzzCase[];
  /** elicitation/create + other requests sent through the SDK: each must be declined or get an error. */
  requests: number;
  notifications: number;
  /** Raw lines by what they are owed. */
  raw: Record<"error_null_id" | "reply" | "none", number>;
  /** Ids that must be answered under their own id (raw requests). */
  replyIds: Array<string | number>;
  categories: Set<string>;
}

export function expectFuzz(seed: number, count: number, sessionId: string): FuzzExpectation {
  const cases = [...fuzzCases(seed, count, sessionId)];
  const raw = { error_null_id: 0, reply: 0, none: 0 };
  const replyIds: Array<string | number> = [];
  let requests = 0;
  let notifications = 0;
  for (const c of cases) {
    if (c.kind === "elicit" || c.kind === "request") requests += 1;
    else if (c.kind === "notify") notifications += 1;
    else {
      raw[c.expect] += 1;
      if (c.expect === "reply" && c.id !== undefined) replyIds.push(c.id);
    }
  }
  return { cases, requests, notifications, raw, replyIds, categories: new Set(cases.map((c) => `${c.kind}:${c.category}`)) };
}

/** Sum of a record's values. */
export function total(record: Record<string, number>): number {
  return Object.values(record).reduce((a, b) => a + b, 0);
}

export type { FuzzTally };

/** The notification events of one action whose payload has `key === value`. */
export function eventsWhere(client: StreamClient, action: string, key: string, value: unknown): Envelope[] {
  return client.eventsOf(action).filter((e) => (e.payload as Record<string, unknown>)[key] === value);
}

/**
 * Writes a hand-rolled ACP agent (plain ndjson over stdio, no SDK) for behaviours no well-behaved
 * agent would show. It answers initialize and session/new; `onPrompt` is the body of a function
 * `(msg, send, process)` run for each session/prompt. Returns the command to configure.
 */
export function hostileAgent(onPrompt: string): string[] {
  const file = path.join(tempDir(), "hostile-agent.mjs");
  fs.writeFileSync(
    file,
    `import readline from "node:readline";
const send = (m) => process.stdout.write(JSON.stringify(m) + "\\n");
const onPrompt = (msg, send, process) => { ${onPrompt} };
readline.createInterface({ input: process.stdin }).on("line", (line) => {
  let msg; try { msg = JSON.parse(line); } catch { return; }
  if (msg.method === "initialize") send({ jsonrpc: "2.0", id: msg.id, result: { protocolVersion: 1, agentCapabilities: {} } });
  else if (msg.method === "session/new") send({ jsonrpc: "2.0", id: msg.id, result: { sessionId: "hostile-1" } });
  else if (msg.method === "session/prompt") onPrompt(msg, send, process);
});
process.on("SIGTERM", () => process.exit(0));
`,
  );
  return [process.execPath, file];
}
