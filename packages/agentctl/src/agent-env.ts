// What an agent's environment may hold of the board's: everything but the board's own settings
// (`KANDEV_*`) and anything that looks like a credential. An agent runs code the operator did not
// write (its model's tool calls); a token it can read from its environment, or from its parent's
// `/proc/<pid>/environ`, is a token it can use. What a profile's own `env` sets is the operator's
// choice for that agent and is added after this filter, unfiltered. Pure, so the rule is tested.

/**
 * Names that say "credential": API keys, tokens, secrets, passwords, private keys. `AUTH` is left
 * out on purpose: `SSH_AUTH_SOCK` is how an agent's git reaches the user's ssh-agent, and it holds
 * a socket path, not a secret.
 */
const SECRET_NAME = /KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|PRIVATE/i;

/**
 * Values that are credentials whatever their name: well-known token formats (GitHub, GitLab,
 * Slack, npm, AWS access keys, `sk-` API keys of OpenAI and Anthropic) and URLs with a password.
 */
const SECRET_VALUE = [
  /^(ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{20,}$/,
  /^github_pat_[A-Za-z0-9_]{20,}$/,
  /^glpat-[A-Za-z0-9_-]{20,}$/,
  /^xox[abprs]-[A-Za-z0-9-]{10,}$/,
  /^npm_[A-Za-z0-9]{30,}$/,
  /^AKIA[0-9A-Z]{16}$/,
  /^sk-[A-Za-z0-9_-]{20,}$/,
  /:\/\/[^/\s:@]+:[^/\s@]+@/,
];

/** The prefix of the board's own settings; none of them is an agent's business. */
export const BOARD_SETTING_PREFIX = "KANDEV_";

/** Whether a variable looks like a credential, by its name or by its value. */
export function looksSecret(name: string, value: string): boolean {
  return SECRET_NAME.test(name) || SECRET_VALUE.some((re) => re.test(value));
}

/** Whether a variable of the board's environment stays out of an agent's (and agentctl's). */
export function isWithheldFromAgents(name: string, value: string): boolean {
  return name.toUpperCase().startsWith(BOARD_SETTING_PREFIX) || looksSecret(name, value);
}

/**
 * The board's environment as an agent may see it: every variable but the board's settings and the
 * credential-looking ones (`isWithheldFromAgents`). Unset (undefined) entries are dropped too.
 */
export function agentEnvFrom(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value !== undefined && !isWithheldFromAgents(name, value)) out[name] = value;
  }
  return out;
}
