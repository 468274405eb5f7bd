// The only module of the backend that reads process.env. Everything else takes an options object.
import path from "node:path";
import { z } from "zod";
import { defaultWebDir } from "./paths.js";
import { FLAG_KEYS, FLAG_REGISTRY, PROFILES, type FlagKey, type Profile } from "./flags/registry.js";

/** The backend's validated configuration. */
export interface BackendEnv {
  host: string;
  port: number;
  dbPath: string;
  profile: Profile;
  /** Flag values given by environment variables (the top tier of flag resolution). */
  flagEnv: Partial<Record<FlagKey, boolean>>;
  /** Extra browser origins allowed to change state (KANDEV_ALLOWED_ORIGINS). */
  allowedOrigins: string[];
  /** Forwarded to agentctl in `agent.configure` when set (DECISIONS F13a). */
  timeouts: { elicitationAnswerMs?: number; acpIdleMs?: number };
  webDir: string;
  serveWeb: boolean;
  /**
   * The board's whole environment. server.ts hands agentctl and agents what is left of it without
   * `KANDEV_*` and credentials (so PATH/HOME etc. reach agents), and redacts those credentials.
   */
  childEnv: Record<string, string>;
  /** KANDEV_AGENT_DIR: a folder whose node_modules/.bin holds locally installed agents. */
  agentDirs: string[];
  /** KANDEV_AGENT_INITIALIZE_TIMEOUT in ms, when set. */
  initializeTimeoutMs?: number;
  /** KANDEV_WORKTREES_DIR: where task worktrees are made; default `worktrees` beside the database. */
  worktreesDir: string;
  /** KANDEV_SESSION_IDLE_TIMEOUT in ms (default 15 min): an agent idle this long is stopped; 0 = never. */
  sessionIdleTimeoutMs: number;
  /** KANDEV_AUTH resolved against the host (resolveAuth): sign-in required. */
  auth: boolean;
}

/** Whether `host` (KANDEV_HOST) only listens on this machine: 127.0.0.0/8, ::1, localhost. */
export function isLoopbackHost(host: string): boolean {
  const h = host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, "$1");
  return h === "localhost" || h === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/**
 * KANDEV_AUTH against the listening host (pure). Unset: off on loopback (one person on their own
 * machine), on beyond it. `off` beyond loopback is refused: anyone on the network could then run
 * commands as the board's user through an agent profile.
 */
export function resolveAuth(input: { host: string; auth: "on" | "off" | undefined }): { enabled: boolean } | { refused: string } {
  const loopback = isLoopbackHost(input.host);
  if (input.auth === "on") return { enabled: true };
  if (input.auth === "off") {
    if (loopback) return { enabled: false };
    return {
      refused:
        `KANDEV_AUTH=off with KANDEV_HOST=${input.host}: the board would listen beyond this machine with no sign-in, ` +
        "and anyone who reaches its port could run commands as your user through an agent profile. " +
        "Set KANDEV_AUTH=on (or leave it unset) and create the admin account at the first visit, " +
        "or listen on loopback only (KANDEV_HOST=127.0.0.1).",
    };
  }
  return { enabled: !loopback };
}

/** An agent waiting this long for its next prompt is stopped (KANDEV_SESSION_IDLE_TIMEOUT). */
export const DEFAULT_SESSION_IDLE_TIMEOUT_MS = 15 * 60_000;

const booleanText = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.enum(["true", "false", "1", "0", "yes", "no", "on", "off"]))
  .transform((v) => v === "true" || v === "1" || v === "yes" || v === "on");

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** Parses a Go-style duration ("55m", "1h", "1h30m", "500ms") into milliseconds; undefined if malformed. */
export function parseDurationMs(text: string): number | undefined {
  const trimmed = text.trim();
  if (!/^(\d+(\.\d+)?(ms|s|m|h))+$/.test(trimmed)) return undefined;
  let total = 0;
  for (const m of trimmed.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h)/g)) total += Number(m[1]) * (UNIT_MS[m[2]!] ?? 0);
  const ms = Math.round(total);
  return ms > 0 ? ms : undefined;
}

const duration = z.string().transform((v, ctx) => {
  const ms = parseDurationMs(v);
  if (ms === undefined) {
    ctx.addIssue({ code: "custom", message: `not a duration like 55m, 1h, 30s: ${JSON.stringify(v)}` });
    return z.NEVER;
  }
  return ms;
});

/** A duration, or 0 (with or without a unit) for "never". */
const durationOrZero = z.string().transform((v, ctx) => {
  if (/^\s*0+(ms|s|m|h)?\s*$/.test(v)) return 0;
  const ms = parseDurationMs(v);
  if (ms === undefined) {
    ctx.addIssue({ code: "custom", message: `not a duration like 15m, 30s, 500ms, or 0 for never: ${JSON.stringify(v)}` });
    return z.NEVER;
  }
  return ms;
});

/** An empty variable counts as unset, so `FOO= npm start` behaves like not setting FOO. */
const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (typeof v === "string" && v.trim() === "" ? undefined : v), schema.optional());

const EnvSchema = z.object({
  KANDEV_HOST: optional(z.string().trim().min(1)).transform((v) => v ?? "127.0.0.1"),
  KANDEV_PORT: optional(z.coerce.number().int().min(0).max(65535)).transform((v) => v ?? 38429),
  KANDEV_DB_PATH: optional(z.string()).transform((v) => v ?? "./data/kandev.db"),
  KANDEV_PROFILE: optional(z.enum(PROFILES)).transform((v) => v ?? "prod"),
  KANDEV_ALLOWED_ORIGINS: optional(z.string()),
  KANDEV_ELICITATION_ANSWER_TIMEOUT: optional(duration),
  KANDEV_ACP_IDLE_TIMEOUT: optional(duration),
  KANDEV_WEB_DIR: optional(z.string()),
  KANDEV_SERVE_WEB: optional(booleanText).transform((v) => v ?? true),
  KANDEV_AGENT_DIR: optional(z.string()),
  KANDEV_AGENT_INITIALIZE_TIMEOUT: optional(duration),
  KANDEV_WORKTREES_DIR: optional(z.string()),
  KANDEV_AUTH: optional(
    z
      .string()
      .trim()
      .toLowerCase()
      .pipe(z.enum(["on", "off"])),
  ),
  KANDEV_SESSION_IDLE_TIMEOUT: optional(durationOrZero).transform((v) => v ?? DEFAULT_SESSION_IDLE_TIMEOUT_MS),
});

/**
 * Reads and validates the environment. Throws an Error listing every bad variable, so a typo stops
 * the start with a clear message instead of running with a surprise default.
 */
export function loadEnv(source: NodeJS.ProcessEnv = process.env, cwd: string = process.cwd()): BackendEnv {
  const parsed = EnvSchema.safeParse(source);
  const flagEnv: Partial<Record<FlagKey, boolean>> = {};
  const problems: string[] = parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
  for (const key of FLAG_KEYS) {
    const name = FLAG_REGISTRY[key].envVar;
    const raw = source[name];
    if (raw === undefined || raw.trim() === "") continue;
    const value = booleanText.safeParse(raw);
    if (value.success) flagEnv[key] = value.data;
    else problems.push(`${name}: expected true or false, got ${JSON.stringify(raw)}`);
  }
  if (!parsed.success || problems.length > 0) throw new Error(`invalid environment:\n  ${problems.join("\n  ")}`);
  const env = parsed.data;
  // agentctl refuses to start when the answer deadline is not below the idle timeout (DECISIONS
  // F13a); say so now rather than failing every session later.
  if (
    env.KANDEV_ELICITATION_ANSWER_TIMEOUT !== undefined &&
    env.KANDEV_ACP_IDLE_TIMEOUT !== undefined &&
    env.KANDEV_ELICITATION_ANSWER_TIMEOUT >= env.KANDEV_ACP_IDLE_TIMEOUT
  ) {
    throw new Error("invalid environment:\n  KANDEV_ELICITATION_ANSWER_TIMEOUT must be below KANDEV_ACP_IDLE_TIMEOUT");
  }
  const auth = resolveAuth({ host: env.KANDEV_HOST, auth: env.KANDEV_AUTH });
  if ("refused" in auth) throw new Error(`refusing to start:\n  ${auth.refused}`);
  const dbPath = path.resolve(cwd, env.KANDEV_DB_PATH);
  const childEnv: Record<string, string> = {};
  for (const [k, v] of Object.entries(source)) if (v !== undefined) childEnv[k] = v;
  return {
    host: env.KANDEV_HOST,
    port: env.KANDEV_PORT,
    dbPath,
    profile: env.KANDEV_PROFILE,
    flagEnv,
    allowedOrigins: (env.KANDEV_ALLOWED_ORIGINS ?? "")
      .split(",")
      .map((s) => s.trim())
      .filter((s) => s.length > 0),
    timeouts: {
      ...(env.KANDEV_ELICITATION_ANSWER_TIMEOUT !== undefined && { elicitationAnswerMs: env.KANDEV_ELICITATION_ANSWER_TIMEOUT }),
      ...(env.KANDEV_ACP_IDLE_TIMEOUT !== undefined && { acpIdleMs: env.KANDEV_ACP_IDLE_TIMEOUT }),
    },
    webDir: env.KANDEV_WEB_DIR !== undefined ? path.resolve(cwd, env.KANDEV_WEB_DIR) : defaultWebDir(),
    serveWeb: env.KANDEV_SERVE_WEB,
    childEnv,
    agentDirs: env.KANDEV_AGENT_DIR !== undefined ? [path.resolve(cwd, env.KANDEV_AGENT_DIR)] : [],
    ...(env.KANDEV_AGENT_INITIALIZE_TIMEOUT !== undefined && { initializeTimeoutMs: env.KANDEV_AGENT_INITIALIZE_TIMEOUT }),
    worktreesDir: env.KANDEV_WORKTREES_DIR !== undefined ? path.resolve(cwd, env.KANDEV_WORKTREES_DIR) : path.join(path.dirname(dbPath), "worktrees"),
    sessionIdleTimeoutMs: env.KANDEV_SESSION_IDLE_TIMEOUT,
    auth: auth.enabled,
  };
}

/**
 * The environment git runs with (workspaces/git.ts): this process's own, read when git runs (so
 * PATH, HOME and GIT_CONFIG_* are what they are then), with every prompt off: no terminal can
 * answer one, so git fails instead of waiting (ssh in batch mode unless GIT_SSH_COMMAND says
 * otherwise), and no optional index lock races the agent's own git.
 */
export function gitEnvironment(): NodeJS.ProcessEnv {
  return {
    ...process.env,
    GIT_TERMINAL_PROMPT: "0",
    GIT_SSH_COMMAND: process.env.GIT_SSH_COMMAND ?? "ssh -o BatchMode=yes",
    GIT_OPTIONAL_LOCKS: "0",
  };
}

/**
 * Next.js renders with React's production build only when NODE_ENV says so (its own `next start`
 * sets it; an embedding server must). Called right before the web app is loaded.
 */
export function setWebRuntimeDefaults(): void {
  process.env.NODE_ENV ??= "production";
}
