// The mock agent's environment, read in one place.

/** MOCK_AGENT_LOG: the file every ACP frame and raw line is tapped to; unset or empty, nothing is logged. */
export function frameLogFile(source: NodeJS.ProcessEnv = process.env): string | undefined {
  const file = source.MOCK_AGENT_LOG;
  return file !== undefined && file.length > 0 ? file : undefined;
}

/**
 * MOCK_AGENT_START_GATE: a file that must exist before the agent answers ACP `initialize`, so a
 * test can hold a session in STARTING for as long as it needs (and then let it start).
 */
export function startGateFile(source: NodeJS.ProcessEnv = process.env): string | undefined {
  const file = source.MOCK_AGENT_START_GATE;
  return file !== undefined && file.length > 0 ? file : undefined;
}

/**
 * MOCK_AGENT_FLOOD_LOG: a file each `/e2e:flood` turn that sent all its chunks appends one line to,
 * with the time its last chunk was written (scenarios/flood.ts, for `npm run bench -- --streaming`).
 */
export function floodLogFile(source: NodeJS.ProcessEnv = process.env): string | undefined {
  const file = source.MOCK_AGENT_FLOOD_LOG;
  return file !== undefined && file.length > 0 ? file : undefined;
}

/** MOCK_AGENT_SESSION_STATE=1: session/new answers modes and config options (session-state.ts). */
export function sessionStateEnabled(source: NodeJS.ProcessEnv = process.env): boolean {
  return source.MOCK_AGENT_SESSION_STATE === "1";
}
