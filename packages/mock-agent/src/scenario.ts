import type * as acp from "@agentclientprotocol/sdk";
import type { BenchWireStamps } from "./scenarios/bench-wire.js";
import type { MockSessionSettings } from "./session-state.js";

/**
 * Everything a scenario may use while it plays one prompt turn.
 *
 * To send an ACP request to the client (agentctl), use `client`, e.g.
 * `ctx.client.request(acp.methods.client.elicitation.create, req, { cancellationSignal: ctx.signal })`.
 */
export interface ScenarioContext {
  /** ACP session this turn belongs to. */
  readonly sessionId: string;
  /** The whole prompt text (text blocks joined). */
  readonly prompt: string;
  /** The text after `/e2e:<name>`, trimmed ("" when absent). */
  readonly rest: string;
  /** Typed ACP client context: `request(...)` / `notify(...)` to the client. */
  readonly client: acp.AgentContext;
  /** Aborts when the client sends `session/cancel` for this session or `$/cancel_request` for the prompt. */
  readonly signal: AbortSignal;
  /** The `clientCapabilities` the client sent in `initialize` (null when it sent none). */
  readonly clientCapabilities: acp.ClientCapabilities | null;
  /** The `cwd` the client sent in this session's `session/new` (the agent's own cwd when unknown). */
  readonly cwd: string;
  /** The `mcpServers` the client sent in this session's `session/new` ([] when none). */
  readonly mcpServers: readonly acp.McpServer[];
  /** Sends one `session/update`. */
  update(update: acp.SessionUpdate): Promise<void>;
  /** Sends one `agent_message_chunk` with this text. */
  say(text: string): Promise<void>;
  /** Streams `text` as several `agent_message_chunk`s with small delays; stops early on cancel. */
  stream(text: string, options?: StreamOptions): Promise<void>;
  /** Waits `ms`, resolving early (without throwing) when the turn is cancelled. */
  sleep(ms: number): Promise<void>;
  /** Writes a diagnostic line to stderr. */
  log(message: string): void;
  /**
   * Writes one raw line (a newline is added) to the client, bypassing JSON-RPC framing: invalid
   * JSON, wrong envelopes, responses to nothing. Null when the transport gives no raw access (an
   * in-process stream); the CLI provides it over stdout.
   */
  readonly writeRaw: ((line: string) => Promise<void>) | null;
  /**
   * The benchmark's send and receipt times, taken as messages are written to and read from the
   * pipes (bench-wire.ts). Null when the transport has no pipes (an in-process stream).
   */
  readonly wireStamps: BenchWireStamps | null;
  /** The agent's per-session mode and model (session-state.ts), for scenarios that change them. */
  readonly settings: MockSessionSettings;
}

export interface StreamOptions {
  /** How many chunks to split into (default 4, fewer when the text is short). */
  chunks?: number;
  /** Delay between chunks in ms (default 15). */
  delayMs?: number;
}

/** One scripted behaviour, selected by `/e2e:<name>` at the start of a prompt. */
export interface Scenario {
  /** One line for humans and the unknown-scenario reply. */
  readonly description: string;
  /**
   * Plays the turn. The returned stop reason answers `session/prompt`; when the turn was cancelled
   * (`ctx.signal.aborted`) the agent answers `cancelled` whatever this returns, as ACP requires.
   */
  run(ctx: ScenarioContext): Promise<acp.StopReason>;
}

/** A registry of scenarios by name. */
export type ScenarioRegistry = Readonly<Record<string, Scenario>>;
