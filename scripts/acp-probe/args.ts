// Command line of `npm run acp:probe`. Pure: parses argv, throws UsageError with a readable message.
import { parseDuration } from "@kandev/agentctl";

export const USAGE = `usage: npm run acp:probe -- --agent "<command>" [options]

Drives an ACP agent through initialize, session/new and session/prompt and prints the JSON-RPC
method sequence (both directions), every elicitation/create frame in full, the tool calls seen, the
session state it reported (modes, config options, commands, usage, title) and the stop reason.

  --agent "<command>"        the agent command line (split like a shell would: quotes, backslashes;
                             no pipes, variables or globbing)
  --elicitation on|off|both  advertise elicitation: {form: {}} in clientCapabilities (default on);
                             both runs off then on and prints the two sequences side by side
  --prompt "<text>"          the prompt (default: ask for AskUserQuestion, as in the spec's probe)
  --answer '<json object>'   accept every elicitation with this content (default: decline)
  --permission allow|deny    answer permission requests with the first allow / reject option
                             (default deny; cancelled when no such option exists)
  --agent-id <id>            scopes clientCapabilities._meta like agentctl does (default generic)
  --cwd <dir>                cwd of the agent and of session/new (default: the current directory)
  --timeout <duration>       per run, e.g. 30s, 2m (default 2m)
  --json                     print one JSON document instead of the text report

Exit status: 0 when every run reached a stop reason, 1 when a run failed (agent missing, exited,
protocol error, timeout), 2 on a usage error.`;

export const DEFAULT_PROMPT = "Use the AskUserQuestion tool right now to ask me to pick a colour: Red or Blue.";
export const DEFAULT_TIMEOUT_MS = 120_000;

export class UsageError extends Error {
  override readonly name = "UsageError";
}

export interface ProbeArgs {
  agent: string[];
  elicitation: "on" | "off" | "both";
  prompt: string;
  /** Content to accept elicitations with; null declines them. */
  answer: Record<string, unknown> | null;
  permission: "allow" | "deny";
  agentId: string;
  cwd: string;
  timeoutMs: number;
  json: boolean;
}

/** Splits a command line into argv: whitespace separates, '…' is literal, "…" and \\ escape. */
export function splitCommand(line: string): string[] {
  const out: string[] = [];
  let cur = "";
  let inWord = false;
  let quote: "'" | '"' | null = null;
  for (let i = 0; i < line.length; i += 1) {
    const ch = line[i]!;
    if (quote === "'") {
      if (ch === "'") quote = null;
      else cur += ch;
    } else if (quote === '"') {
      if (ch === '"') quote = null;
      else if (ch === "\\" && i + 1 < line.length && '"\\$`'.includes(line[i + 1]!)) cur += line[++i];
      else cur += ch;
    } else if (ch === "'" || ch === '"') {
      quote = ch;
      inWord = true;
    } else if (ch === "\\" && i + 1 < line.length) {
      cur += line[++i];
      inWord = true;
    } else if (/\s/.test(ch)) {
      if (inWord) out.push(cur);
      cur = "";
      inWord = false;
    } else {
      cur += ch;
      inWord = true;
    }
  }
  if (quote !== null) throw new UsageError(`unterminated ${quote} quote in --agent`);
  if (inWord) out.push(cur);
  return out;
}

const FLAGS_WITH_VALUE = new Set(["--agent", "--elicitation", "--prompt", "--answer", "--permission", "--agent-id", "--cwd", "--timeout"]);

export function parseProbeArgs(argv: readonly string[], defaultCwd: string): ProbeArgs {
  const values = new Map<string, string>();
  let json = false;
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i]!;
    if (arg === "--json") {
      json = true;
      continue;
    }
    const eq = arg.indexOf("=");
    const flag = arg.startsWith("--") && eq > 0 ? arg.slice(0, eq) : arg;
    if (!FLAGS_WITH_VALUE.has(flag)) throw new UsageError(`unknown argument "${arg}"`);
    let value: string | undefined;
    if (eq > 0 && arg.startsWith("--")) value = arg.slice(eq + 1);
    else value = argv[++i];
    if (value === undefined) throw new UsageError(`${flag} needs a value`);
    values.set(flag, value);
  }
  const agentLine = values.get("--agent");
  if (agentLine === undefined) throw new UsageError("--agent is required");
  const agent = splitCommand(agentLine);
  if (agent.length === 0) throw new UsageError("--agent is empty");

  const elicitation = values.get("--elicitation") ?? "on";
  if (elicitation !== "on" && elicitation !== "off" && elicitation !== "both") {
    throw new UsageError(`--elicitation must be on, off or both (got "${elicitation}")`);
  }
  const permission = values.get("--permission") ?? "deny";
  if (permission !== "allow" && permission !== "deny") throw new UsageError(`--permission must be allow or deny (got "${permission}")`);

  let answer: Record<string, unknown> | null = null;
  const answerText = values.get("--answer");
  if (answerText !== undefined) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(answerText);
    } catch {
      throw new UsageError(`--answer is not JSON: ${answerText}`);
    }
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
      throw new UsageError('--answer must be a JSON object (the elicitation content), e.g. \'{"question_0":"Red"}\'');
    }
    answer = parsed as Record<string, unknown>;
  }

  let timeoutMs = DEFAULT_TIMEOUT_MS;
  const timeoutText = values.get("--timeout");
  if (timeoutText !== undefined) {
    const ms = parseDuration(timeoutText);
    if (ms === null || ms <= 0) throw new UsageError(`--timeout "${timeoutText}" is not a duration (use e.g. 500ms, 30s, 2m)`);
    timeoutMs = ms;
  }
  const prompt = values.get("--prompt") ?? DEFAULT_PROMPT;
  if (prompt.trim().length === 0) throw new UsageError("--prompt is empty");

  return {
    agent,
    elicitation,
    prompt,
    answer,
    permission,
    agentId: values.get("--agent-id") ?? "generic",
    cwd: values.get("--cwd") ?? defaultCwd,
    timeoutMs,
    json,
  };
}
