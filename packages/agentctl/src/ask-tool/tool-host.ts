// Decides whether the agent gets the kandev MCP server in `session/new`, starts the server once
// (lazily, only when an agent can use it) and closes it with agentctl or the agent.
import type * as acp from "@agentclientprotocol/sdk";
import type { KandevToolRelay, KandevToolServer } from "./mcp-server.js";

/**
 * The MCP server module (and the MCP SDK under it, ~0.3 s of CPU to load on the 2-core machine)
 * is loaded only when an agent can use the tool: most agentctl starts never need it.
 */
const startLazily = (opts: { relay: KandevToolRelay }): Promise<KandevToolServer> =>
  import("./mcp-server.js").then((m) => m.startKandevToolServer(opts));

/** Name of the MCP server entry in `session/new`; the agent prefixes its tools with it. */
export const KANDEV_MCP_SERVER_NAME = "kandev";

/** Why the tool is or is not offered; pure, so every branch is tested directly. */
export type KandevToolDecision = { offer: true } | { offer: false; reason: "disabled" | "agent_lacks_http_mcp" };

/**
 * `kandev_tool` absent means enabled; `{enabled: false}` turns it off. An agent that did not
 * advertise `mcpCapabilities.http` cannot reach an http MCP server, and ACP forbids sending it one.
 */
export function decideKandevTool(
  kandevTool: { enabled: boolean } | undefined,
  agentCapabilities: Record<string, unknown> | undefined,
): KandevToolDecision {
  if (kandevTool?.enabled === false) return { offer: false, reason: "disabled" };
  const mcp = agentCapabilities?.mcpCapabilities;
  const http = typeof mcp === "object" && mcp !== null && (mcp as Record<string, unknown>).http === true;
  return http ? { offer: true } : { offer: false, reason: "agent_lacks_http_mcp" };
}

/** The `mcpServers` entry for the kandev server (ACP `McpServerHttp`). */
export function kandevMcpServer(url: string): acp.McpServer {
  return { type: "http", name: KANDEV_MCP_SERVER_NAME, url, headers: [] };
}

export interface KandevToolHostOptions {
  relay: KandevToolRelay;
  log: (message: string) => void;
  /** Seam for tests; defaults to `startKandevToolServer` (mcp-server.ts), loaded on first use. */
  start?: (opts: { relay: KandevToolRelay }) => Promise<KandevToolServer>;
}

/** Owns agentctl's one kandev MCP tool server. */
export class KandevToolHost {
  private server: Promise<KandevToolServer> | null = null;
  private closed = false;

  constructor(private readonly opts: KandevToolHostOptions) {}

  /** The `mcpServers` to send in `session/new` for this decision (starting the server if needed). */
  async mcpServersFor(decision: KandevToolDecision): Promise<acp.McpServer[]> {
    if (!decision.offer) {
      this.opts.log(
        decision.reason === "disabled"
          ? "agentctl: ask_user_question_kandev not offered: kandev_tool is disabled in agent.configure"
          : "agentctl: ask_user_question_kandev not offered: the agent did not advertise mcpCapabilities.http in initialize",
      );
      return [];
    }
    if (this.closed) return [];
    this.server ??= (this.opts.start ?? startLazily)({ relay: this.opts.relay });
    try {
      return [kandevMcpServer((await this.server).url)];
    } catch (err) {
      this.server = null;
      throw err;
    }
  }

  /** Stops the server (idempotent); in-flight calls see their HTTP connection close. */
  async close(): Promise<void> {
    this.closed = true;
    const server = this.server;
    this.server = null;
    if (server !== null) await server.then((s) => s.close()).catch(() => {});
  }
}
