import { randomUUID } from "node:crypto";
import * as acp from "@agentclientprotocol/sdk";
import { parsePrompt, promptText, splitChunks } from "./prompt-parse.js";
import type { ScenarioContext, ScenarioRegistry, StreamOptions } from "./scenario.js";
import type { BenchWireStamps } from "./scenarios/bench-wire.js";
import { MOCK_COMMANDS, MockSessionSettings } from "./session-state.js";

export interface MockAgentOptions {
  scenarios: ScenarioRegistry;
  /** Diagnostics sink (the CLI writes to stderr). */
  log?: (message: string) => void;
  /** Raw line writer to the client (the CLI's stdout); scenarios see it as `ctx.writeRaw`. */
  writeRaw?: (line: string) => Promise<void>;
  /** The benchmark's stamps at the pipes (the CLI's); scenarios see them as `ctx.wireStamps`. */
  wireStamps?: BenchWireStamps;
  /** Resolves when `initialize` may be answered (the CLI's MOCK_AGENT_START_GATE); absent: at once. */
  startGate?: () => Promise<void>;
  /** MOCK_AGENT_SESSION_STATE=1: session/new answers modes and a model option, then advertises commands. */
  sessionState?: boolean;
}

/** What the mock agent remembers across requests; exposed for in-process tests. */
export interface MockAgentState {
  clientCapabilities: acp.ClientCapabilities | null;
  sessions: Set<string>;
  /** The `mcpServers` each session was created with (session/new), by session id. */
  mcpServers: Map<string, acp.McpServer[]>;
  /** The `cwd` each session was created with (session/new), by session id. */
  cwds: Map<string, string>;
  /** Cancels the running turn of a session. */
  activeTurns: Map<string, AbortController>;
  /** Each session's mode and model (session-state.ts). */
  settings: MockSessionSettings;
}

/** Builds the ACP agent app that plays scenarios. Connect it to a stream to serve a client. */
export function createMockAgent(options: MockAgentOptions): { app: acp.AgentApp; state: MockAgentState } {
  const log = options.log ?? (() => {});
  const state: MockAgentState = {
    clientCapabilities: null,
    sessions: new Set(),
    mcpServers: new Map(),
    cwds: new Map(),
    activeTurns: new Map(),
    settings: new MockSessionSettings(),
  };

  const app = acp
    .agent({ name: "kandev-mock-agent" })
    .onRequest(acp.methods.agent.initialize, async ({ params }) => {
      await options.startGate?.();
      state.clientCapabilities = params.clientCapabilities ?? null;
      return {
        protocolVersion: acp.PROTOCOL_VERSION,
        // http MCP servers are what agentctl's kandev tool server needs (the kandev-question scenarios).
        agentCapabilities: { loadSession: false, mcpCapabilities: { http: true, sse: false } },
        agentInfo: { name: "kandev-mock-agent", version: "0.1.0" },
        authMethods: [],
      };
    })
    .onRequest(acp.methods.agent.session.new, ({ params, client }) => {
      const sessionId = `mock-${randomUUID()}`;
      state.sessions.add(sessionId);
      state.mcpServers.set(sessionId, [...params.mcpServers]);
      state.cwds.set(sessionId, params.cwd);
      state.settings.open(sessionId);
      if (options.sessionState !== true) return { sessionId };
      // Like the Claude bridge: the commands follow the answer as a session/update.
      setImmediate(() => {
        void client
          .notify(acp.methods.client.session.update, {
            sessionId,
            update: { sessionUpdate: "available_commands_update", availableCommands: MOCK_COMMANDS },
          })
          .catch(() => {});
      });
      return { sessionId, ...state.settings.opened(sessionId) };
    })
    .onRequest(acp.methods.agent.session.setMode, ({ params }) => {
      state.settings.setMode(params.sessionId, params.modeId);
      return {};
    })
    .onRequest(acp.methods.agent.session.setConfigOption, ({ params }) => ({
      configOptions: state.settings.setConfigOption(params.sessionId, params.configId, params.value),
    }))
    .onNotification(acp.methods.agent.session.cancel, ({ params }) => {
      state.activeTurns.get(params.sessionId)?.abort(new Error("session/cancel"));
    })
    .onRequest(acp.methods.agent.session.prompt, async ({ params, client, signal }) => {
      if (!state.sessions.has(params.sessionId)) {
        throw acp.RequestError.invalidParams({ sessionId: params.sessionId }, "unknown session");
      }
      const turn = new AbortController();
      const onRequestAbort = () => turn.abort(new Error("$/cancel_request"));
      signal.addEventListener("abort", onRequestAbort, { once: true });
      state.activeTurns.get(params.sessionId)?.abort(new Error("superseded by a new prompt"));
      state.activeTurns.set(params.sessionId, turn);
      try {
        const text = promptText(params.prompt);
        const parsed = parsePrompt(text);
        const ctx = makeContext({
          sessionId: params.sessionId,
          client,
          signal: turn.signal,
          text,
          rest: parsed.rest,
          state,
          log,
          writeRaw: options.writeRaw ?? null,
          wireStamps: options.wireStamps ?? null,
        });
        let stopReason: acp.StopReason;
        if (parsed.scenario === null) {
          await ctx.stream(`Mock agent received: ${text}`);
          stopReason = "end_turn";
        } else {
          const scenario = Object.hasOwn(options.scenarios, parsed.scenario) ? options.scenarios[parsed.scenario] : undefined;
          if (scenario === undefined) {
            const known = Object.keys(options.scenarios).sort().join(", ");
            await ctx.say(`Unknown scenario "${parsed.scenario}". Known scenarios: ${known}.`);
            stopReason = "end_turn";
          } else {
            stopReason = await scenario.run(ctx);
          }
        }
        return { stopReason: turn.signal.aborted ? "cancelled" : stopReason };
      } catch (err) {
        if (turn.signal.aborted) return { stopReason: "cancelled" as const };
        throw err;
      } finally {
        signal.removeEventListener("abort", onRequestAbort);
        if (state.activeTurns.get(params.sessionId) === turn) state.activeTurns.delete(params.sessionId);
      }
    });

  return { app, state };
}

interface ContextInput {
  sessionId: string;
  client: acp.AgentContext;
  signal: AbortSignal;
  text: string;
  rest: string;
  state: MockAgentState;
  log: (message: string) => void;
  writeRaw: ((line: string) => Promise<void>) | null;
  wireStamps: BenchWireStamps | null;
}

function makeContext(input: ContextInput): ScenarioContext {
  const { sessionId, client, signal } = input;
  const update = (u: acp.SessionUpdate) => client.notify(acp.methods.client.session.update, { sessionId, update: u });
  const say = (text: string) => update({ sessionUpdate: "agent_message_chunk", content: { type: "text", text } });
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      if (signal.aborted) return resolve();
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener("abort", done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal.addEventListener("abort", done, { once: true });
    });
  const stream = async (text: string, opts: StreamOptions = {}) => {
    const parts = splitChunks(text, opts.chunks ?? 4);
    for (const [i, part] of parts.entries()) {
      if (signal.aborted) return;
      if (i > 0) await sleep(opts.delayMs ?? 15);
      if (signal.aborted) return;
      await say(part);
    }
  };
  return {
    sessionId,
    prompt: input.text,
    rest: input.rest,
    client,
    signal,
    clientCapabilities: input.state.clientCapabilities,
    cwd: input.state.cwds.get(sessionId) ?? process.cwd(),
    mcpServers: input.state.mcpServers.get(sessionId) ?? [],
    update,
    say,
    stream,
    sleep,
    log: input.log,
    writeRaw: input.writeRaw,
    wireStamps: input.wireStamps,
    settings: input.state.settings,
  };
}
