/**
 * The "add an agent" form's text fields turned into a `POST /api/v1/agent-profiles` body, purely.
 * The command is one argument per line (no shell, so no quoting rules to get wrong); the
 * environment is one KEY=value per line.
 */
import type { CreateAgentProfileBody } from "@kandev/protocol";

export type FormProblem = { field: "name"; kind: "empty" } | { field: "command"; kind: "empty" } | { field: "env"; kind: "line"; line: number };

/** Non-empty lines, trimmed at the ends only (an argument may contain inner spaces). */
export function parseCommand(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l.length > 0);
}

/** `KEY=value` lines; blank lines and `#` comments are skipped; the value may contain `=`. */
export function parseEnv(text: string): { env: Record<string, string> } | { badLine: number } {
  const env: Record<string, string> = {};
  const lines = text.split(/\r?\n/);
  for (const [i, raw] of lines.entries()) {
    const line = raw.trim();
    if (line.length === 0 || line.startsWith("#")) continue;
    const eq = line.indexOf("=");
    const key = eq > 0 ? line.slice(0, eq).trim() : "";
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(key)) return { badLine: i + 1 };
    env[key] = line.slice(eq + 1);
  }
  return { env };
}

export function profileBody(fields: {
  name: string;
  command: string;
  env: string;
  cwd: string;
}): { body: CreateAgentProfileBody } | { problems: FormProblem[] } {
  const problems: FormProblem[] = [];
  const name = fields.name.trim();
  if (!name) problems.push({ field: "name", kind: "empty" });
  const command = parseCommand(fields.command);
  if (command.length === 0) problems.push({ field: "command", kind: "empty" });
  const env = parseEnv(fields.env);
  if ("badLine" in env) problems.push({ field: "env", kind: "line", line: env.badLine });
  if (problems.length > 0 || "badLine" in env) return { problems };
  const cwd = fields.cwd.trim();
  return {
    body: {
      name,
      command,
      ...(Object.keys(env.env).length > 0 ? { env: env.env } : {}),
      ...(cwd ? { cwd } : {}),
    },
  };
}
