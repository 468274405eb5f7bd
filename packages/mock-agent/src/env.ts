// The mock agent's environment, read in one place.

/** MOCK_AGENT_LOG: the file every ACP frame and raw line is tapped to; unset or empty, nothing is logged. */
export function frameLogFile(source: NodeJS.ProcessEnv = process.env): string | undefined {
  const file = source.MOCK_AGENT_LOG;
  return file !== undefined && file.length > 0 ? file : undefined;
}
