// The words an operator reads when an agent cannot be started: what failed, with the command, the
// exit code and the agent's last words, and what to do about it. Pure, so every message is tested.
import type { SessionFailure } from "@kandev/protocol";
import { installHintFor } from "./presets.js";
import fs from "node:fs";
import { resolveExecutable, type FileCheck, type Resolution } from "./executable.js";

/** What the file system says about an agent's working directory. */
export type DirVerdict = "ok" | "missing" | "not_directory";
export type DirCheck = (dir: string) => DirVerdict;

export const checkDir: DirCheck = (dir) => {
  try {
    return fs.statSync(dir).isDirectory() ? "ok" : "not_directory";
  } catch {
    return "missing";
  }
};

/** Why an agent cannot run in `cwd` (it is missing, or a file), or null when it is a folder. */
export function cwdProblemReason(cwd: string, verdict: DirVerdict): string | null {
  if (verdict === "ok") return null;
  const what = verdict === "missing" ? "does not exist" : "is not a folder";
  return `the agent's working directory "${cwd}" ${what}. Change the profile's working directory (Settings -> Agent profiles) or create the folder.`;
}

/** Where a session's start-up was when it failed. */
export type StartPhase = "configure" | "initialize" | "session";

const PHASE_WORDS: Record<StartPhase, string> = {
  configure: "while starting",
  initialize: "before answering ACP initialize",
  session: "while opening its ACP session",
};

/**
 * Checks that a profile's command can be run, the way spawn() will look for it: in a working
 * directory that is a folder (spawn() reports a missing one as the command missing, ENOENT), with
 * an executable it finds. Returns the reason to fail the session with, or null when both are there.
 */
export function checkAgentCommand(
  command: readonly string[],
  options: { pathEnv: string | undefined; cwd: string; check?: FileCheck; checkDir?: DirCheck },
): string | null {
  return agentCommandFailure(command, options)?.reason ?? null;
}

/**
 * A start failure as the session records it: `reason` in English (its `error`), `failure` as a
 * code with its values, for clients that say it in the operator's language.
 */
export interface StartFailure {
  reason: string;
  failure: SessionFailure;
}

/** checkAgentCommand, with the failure's code. */
export function agentCommandFailure(
  command: readonly string[],
  options: { pathEnv: string | undefined; cwd: string; check?: FileCheck; checkDir?: DirCheck },
): StartFailure | null {
  const verdict = (options.checkDir ?? checkDir)(options.cwd);
  const cwdReason = cwdProblemReason(options.cwd, verdict);
  if (cwdReason !== null) {
    return { reason: cwdReason, failure: { code: verdict === "missing" ? "cwd_missing" : "cwd_not_directory", params: { cwd: options.cwd } } };
  }
  const resolved = resolveExecutable(command[0] ?? "", options);
  if (resolved.ok) return null;
  const code = resolved.reason === "not_executable" ? "command_not_executable" : "command_not_found";
  return { reason: missingCommandReason(command, resolved), failure: { code, params: commandParams(command) } };
}

function commandParams(command: readonly string[]): Record<string, string> {
  const hint = installHintFor(command);
  return { command: command[0] ?? "", ...(hint !== undefined && { hint }) };
}

/** "the agent command "x" was not found on PATH. Install it: ..." (or "is not executable"). */
export function missingCommandReason(command: readonly string[], resolved: Extract<Resolution, { ok: false }>): string {
  const file = command[0] ?? "";
  const where = file.includes("/") ? "" : " on PATH";
  const what =
    resolved.reason === "not_executable"
      ? `the agent command "${file}" is not executable${where === "" ? "" : ` (found${where}, but without execute permission)`}`
      : `the agent command "${file}" was not found${where}`;
  return `${what}. ${adviceFor(command)}`;
}

/** Maps agentctl's own refusal to spawn (`cannot start agent command "x": spawn x EACCES`). */
export function spawnRefusedReason(command: readonly string[], agentctlMessage: string): string {
  const file = command[0] ?? "";
  const code = /\b(ENOENT|EACCES|ENOTDIR|EPERM)\b/.exec(agentctlMessage)?.[1];
  const what =
    code === "ENOENT" || code === "ENOTDIR"
      ? `the agent command "${file}" was not found`
      : code === "EACCES" || code === "EPERM"
        ? `the agent command "${file}" is not executable`
        : `the agent command "${file}" could not be started (${agentctlMessage})`;
  return `${what}. ${adviceFor(command)}`;
}

/** spawnRefusedReason, with the failure's code. */
export function spawnRefusedFailure(command: readonly string[], agentctlMessage: string): StartFailure {
  const code = /\b(ENOENT|EACCES|ENOTDIR|EPERM)\b/.exec(agentctlMessage)?.[1];
  const failure: SessionFailure =
    code === "ENOENT" || code === "ENOTDIR"
      ? { code: "command_not_found", params: commandParams(command) }
      : code === "EACCES" || code === "EPERM"
        ? { code: "command_not_executable", params: commandParams(command) }
        : { code: "command_not_startable", params: { ...commandParams(command), detail: agentctlMessage } };
  return { reason: spawnRefusedReason(command, agentctlMessage), failure };
}

function adviceFor(command: readonly string[]): string {
  const hint = installHintFor(command);
  return hint !== undefined ? `Install it: ${hint}` : "Check the profile's command, or install the agent so the board can run it.";
}

/** The agent process ended before the session was up. `stderrTail` adds its last line, if any. */
export function exitedDuringStartReason(phase: StartPhase, exit: { code: number | null; signal: string | null }, stderrTail: string): string {
  const how = exit.signal !== null ? `signal ${exit.signal}` : `code ${exit.code}`;
  const last = lastLine(stderrTail);
  return `the agent exited ${PHASE_WORDS[phase]} (${how})${last !== undefined ? `: ${last}` : ""}`;
}

/** exitedDuringStartReason, with the failure's code. */
export function exitedDuringStartFailure(phase: StartPhase, exit: ExitFacts, stderrTail: string): StartFailure {
  const last = lastLine(stderrTail);
  return {
    reason: exitedDuringStartReason(phase, exit, stderrTail),
    failure: { code: "exited_during_start", params: { phase, ...exitParams(exit), ...(last !== undefined && { last }) } },
  };
}

/** The agent died after its session was up (mid-turn or between turns). */
export function exitedFailure(exit: ExitFacts): StartFailure {
  const how = exit.signal !== null ? `signal ${exit.signal}` : `code ${exit.code}`;
  return { reason: `the agent exited unexpectedly (${how})`, failure: { code: "exited", params: exitParams(exit) } };
}

/** Anything else that stopped the start: agentctl's own words. */
export function startFailedFailure(message: string): StartFailure {
  return { reason: `could not start the agent: ${message}`, failure: { code: "start_failed", params: { detail: message } } };
}

/** initializeTimeoutReason, with the failure's code. */
export function initializeTimeoutFailure(timeoutMs: number): StartFailure {
  return {
    reason: initializeTimeoutReason(timeoutMs),
    failure: { code: "initialize_timeout", params: { seconds: String(Math.round(timeoutMs / 1000)) } },
  };
}

interface ExitFacts {
  code: number | null;
  signal: string | null;
}

function exitParams(exit: ExitFacts): Record<string, string> {
  return exit.signal !== null ? { signal: exit.signal } : { exit_code: String(exit.code) };
}

/** The agent never answered ACP initialize. */
export function initializeTimeoutReason(timeoutMs: number): string {
  return `the agent did not answer ACP initialize within ${formatMs(timeoutMs)}; is the command an ACP agent, and does it start without asking for input? See its log.`;
}

/** The last non-empty line of a stderr tail, cut to a readable length. */
export function lastLine(text: string, max = 300): string | undefined {
  const line = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l.length > 0)
    .at(-1);
  if (line === undefined) return undefined;
  return line.length > max ? `${line.slice(0, max)}…` : line;
}

function formatMs(ms: number): string {
  if (ms % 60_000 === 0) return `${ms / 60_000} min`;
  if (ms % 1000 === 0) return `${ms / 1000} s`;
  return `${ms} ms`;
}
