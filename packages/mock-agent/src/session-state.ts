// The mock agent's session settings, shaped like the Claude bridge's (docs/API.md "Session state"):
// modes and a `model` select returned by session/new when MOCK_AGENT_SESSION_STATE=1, answers to
// session/set_mode and session/set_config_option (unknown ids, and the `broken` mode and
// `mock-broken` model, are refused with a JSON-RPC error so a client's error path can be tested).
import * as acp from "@agentclientprotocol/sdk";

export const MOCK_MODES: acp.SessionMode[] = [
  { id: "default", name: "Ask", description: "Asks before changing anything" },
  { id: "plan", name: "Plan", description: "Plans, changes nothing" },
  { id: "acceptEdits", name: "Accept edits", description: "Edits files without asking" },
  { id: "broken", name: "Broken (mock refuses)", description: "The mock agent refuses to switch to it" },
];

export const MOCK_MODELS: acp.SessionConfigSelectOption[] = [
  { value: "mock-fast", name: "Mock Fast", description: "Quick answers" },
  { value: "mock-smart", name: "Mock Smart", description: "Careful answers" },
  { value: "mock-broken", name: "Broken (mock refuses)" },
];

/** The commands `/e2e:session-state` advertises (available_commands_update). */
export const MOCK_COMMANDS: acp.AvailableCommand[] = [
  { name: "review", description: "Review the changes so far", input: { hint: "[path]" } },
  { name: "compact", description: "Summarize the conversation to free context" },
  { name: "plan-next", description: "Plan the next step" },
];

interface Settings {
  mode: string;
  model: string;
}

/** Per-session mode and model of one mock agent process. */
export class MockSessionSettings {
  private readonly sessions = new Map<string, Settings>();

  open(sessionId: string): void {
    if (!this.sessions.has(sessionId)) this.sessions.set(sessionId, { mode: "default", model: "mock-fast" });
  }

  /** What session/new answers besides the id. */
  opened(sessionId: string): { modes: acp.SessionModeState; configOptions: acp.SessionConfigOption[] } {
    this.open(sessionId);
    const s = this.sessions.get(sessionId)!;
    return { modes: { currentModeId: s.mode, availableModes: MOCK_MODES }, configOptions: this.configOptions(s) };
  }

  private configOptions(s: Settings): acp.SessionConfigOption[] {
    return [
      { id: "model", name: "Model", description: "The mock's model", category: "model", type: "select", currentValue: s.model, options: MOCK_MODELS },
    ];
  }

  private settings(sessionId: string): Settings {
    const s = this.sessions.get(sessionId);
    if (s === undefined) throw acp.RequestError.invalidParams({ sessionId }, "unknown session");
    return s;
  }

  setMode(sessionId: string, modeId: string): void {
    const s = this.settings(sessionId);
    if (!MOCK_MODES.some((m) => m.id === modeId)) throw acp.RequestError.invalidParams({ modeId }, `unknown mode ${modeId}`);
    if (modeId === "broken") throw new acp.RequestError(-32603, "the mock agent refuses mode broken");
    s.mode = modeId;
  }

  /** An agent-side switch (`/e2e:session-state switch`). */
  switchMode(sessionId: string, modeId: string): void {
    this.settings(sessionId).mode = modeId;
  }

  setConfigOption(sessionId: string, configId: string, value: unknown): acp.SessionConfigOption[] {
    const s = this.settings(sessionId);
    if (configId !== "model") throw acp.RequestError.invalidParams({ configId }, `unknown config option ${configId}`);
    if (typeof value !== "string" || !MOCK_MODELS.some((m) => m.value === value)) {
      throw acp.RequestError.invalidParams({ value }, `unknown model ${String(value)}`);
    }
    if (value === "mock-broken") throw new acp.RequestError(-32603, "the mock agent refuses model mock-broken");
    s.model = value;
    return this.configOptions(s);
  }
}
