/** Minimal structured logger; logs go to stderr so stdout stays for the one "Kandev board:" line. */
export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

const LEVELS = ["debug", "info", "warn", "error"] as const;
export type LogLevel = (typeof LEVELS)[number] | "silent";

export function createLogger(level: LogLevel = "info", write: (line: string) => void = (l) => process.stderr.write(l)): Logger {
  const min = level === "silent" ? LEVELS.length : LEVELS.indexOf(level);
  const log = (lvl: (typeof LEVELS)[number]) => (msg: string, fields?: Record<string, unknown>) => {
    if (LEVELS.indexOf(lvl) < min) return;
    write(`${JSON.stringify({ ts: new Date().toISOString(), level: lvl, msg, ...fields })}\n`);
  };
  return { debug: log("debug"), info: log("info"), warn: log("warn"), error: log("error") };
}

export const silentLogger: Logger = createLogger("silent");
