// The operator's changes to a live ACP session's settings: ACP `session/set_mode` and
// `session/set_config_option`. An agent that refuses answers AGENT_ERROR with its own message, so
// the backend can say it (502) instead of a generic failure.
import * as acp from "@agentclientprotocol/sdk";
import { ProtocolError, type ConfigOptionsResult, type ConfigValue, type SessionConfigOption, type SessionModes } from "@kandev/protocol";
import { acpErrorInfo } from "./acp-client.js";
import { mapConfigOptions, mapModes } from "./session-state-mapping.js";

/** What `session/new` or `session/load` said about modes and config options, only what it carried. */
export function openedState(res: unknown): { modes?: SessionModes; config_options?: SessionConfigOption[] } {
  const r = (typeof res === "object" && res !== null ? res : {}) as { modes?: unknown; configOptions?: unknown };
  const modes = mapModes(r.modes as acp.SessionModeState | undefined);
  const configOptions = mapConfigOptions(r.configOptions as acp.SessionConfigOption[] | undefined);
  return { ...(modes !== null && { modes }), ...(configOptions !== null && { config_options: configOptions }) };
}

function agentRefused(method: string, err: unknown): ProtocolError {
  const info = acpErrorInfo(err);
  return new ProtocolError("AGENT_ERROR", info.message, { method, acp_code: info.code });
}

export async function setMode(conn: acp.ClientConnection, sessionId: string, modeId: string): Promise<{ ok: true }> {
  try {
    await conn.agent.request(acp.methods.agent.session.setMode, { sessionId, modeId });
  } catch (err) {
    throw agentRefused("session/set_mode", err);
  }
  return { ok: true };
}

export async function setConfigOption(
  conn: acp.ClientConnection,
  sessionId: string,
  configId: string,
  value: ConfigValue,
): Promise<ConfigOptionsResult> {
  let res: unknown;
  try {
    const params: acp.SetSessionConfigOptionRequest =
      typeof value === "boolean" ? { sessionId, configId, type: "boolean", value } : { sessionId, configId, value };
    res = await conn.agent.request(acp.methods.agent.session.setConfigOption, params);
  } catch (err) {
    throw agentRefused("session/set_config_option", err);
  }
  // ACP requires the full list in the answer; the SDK does not check responses, so we do.
  const options = mapConfigOptions((res as { configOptions?: acp.SessionConfigOption[] } | null)?.configOptions);
  if (options === null) {
    throw new ProtocolError("AGENT_ERROR", "the agent answered session/set_config_option without configOptions", {
      method: "session/set_config_option",
    });
  }
  return { config_options: options };
}
