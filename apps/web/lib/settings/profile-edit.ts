// The "edit agent" form's state turned into a `PATCH /api/v1/agent-profiles/:id` body, purely.
// Environment values can be secrets: the form never shows one. Each existing variable is kept
// (not sent at all), replaced with a value typed now, or removed (null); new ones are KEY=value
// lines as in the add form. The board answers with every value masked (issue 34: "********"), so
// "keep" must never send what it was given back as if it were the value.
import { SECRET_MASK, type AgentProfile, type PatchAgentProfileBody } from "@kandev/protocol";
import { type FormProblem, parseCommand, parseEnv } from "./profile-form";

export type EnvChoice = { mode: "keep" } | { mode: "replace"; value: string } | { mode: "remove" };

export interface ProfileEditState {
  name: string;
  command: string;
  cwd: string;
  /** One choice per variable the profile has now. */
  env: Record<string, EnvChoice>;
  /** New variables, one KEY=value per line. */
  added: string;
}

export function editState(profile: AgentProfile): ProfileEditState {
  return {
    name: profile.name,
    command: profile.command.join("\n"),
    cwd: profile.cwd ?? "",
    env: Object.fromEntries(Object.keys(profile.env ?? {}).map((k) => [k, { mode: "keep" } as EnvChoice])),
    added: "",
  };
}

/** Only what changed goes into the body; every problem is reported at once. */
export function profilePatch(profile: AgentProfile, state: ProfileEditState): { body: PatchAgentProfileBody } | { problems: FormProblem[] } {
  const problems: FormProblem[] = [];
  const name = state.name.trim();
  if (!name) problems.push({ field: "name", kind: "empty" });
  const command = parseCommand(state.command);
  if (command.length === 0) problems.push({ field: "command", kind: "empty" });
  const added = parseEnv(state.added);
  if ("badLine" in added) problems.push({ field: "env", kind: "line", line: added.badLine });
  if (problems.length > 0 || "badLine" in added) return { problems };

  const env: Record<string, string | null> = {};
  for (const [key, choice] of Object.entries(state.env)) {
    if (choice.mode === "remove") env[key] = null;
    else if (choice.mode === "replace") env[key] = choice.value;
  }
  Object.assign(env, added.env);
  const body: PatchAgentProfileBody = {};
  if (name !== profile.name) body.name = name;
  if (command.join("\n") !== profile.command.join("\n")) body.command = command;
  const cwd = state.cwd.trim();
  if (cwd !== (profile.cwd ?? "")) body.cwd = cwd === "" ? null : cwd;
  if (Object.keys(env).length > 0) body.env = env;
  return { body };
}

/** Whether the board sent this env value masked (set, but write-only); such a value shows as "set, hidden". */
export function isMaskedValue(value: string | undefined): boolean {
  return value === SECRET_MASK;
}
