/**
 * kandev-question scenarios: the mock agent finds the `kandev` http MCP server the client passed in
 * `session/new`, connects to it as a real MCP client (streamable HTTP), calls
 * `ask_user_question_kandev` and reports the outcome as one agent_message_chunk, then ends the turn:
 *   `kandev tool result: <text>`   the tool's text result
 *   `kandev tool error: <text>`    a tool error result, a failed call, or no kandev server at all
 * The call is shown as an ACP tool_call (`ask_user_question_kandev`) completed or failed.
 *
 * The rest of the prompt may hold, in this order:
 *   `wait-signal`  wait for SIGUSR2 before calling (after saying `kandev tool: waiting for SIGUSR2`),
 *                  so a test can change the world (e.g. drop the backend) at a known point;
 *   `{...}`        JSON tool arguments replacing the default questions (e.g. invalid input).
 *
 * The MCP call's own timeout is set above the board's 2 h wait. (Node's fetch still gives up on a
 * response whose headers take over 5 minutes; tests never wait that long.)
 */
import type * as acp from "@agentclientprotocol/sdk";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Scenario, ScenarioContext, ScenarioRegistry } from "../scenario.js";

/** The board's tool, as the agent sees it in the kandev server's tools/list. */
export const KANDEV_TOOL = "ask_user_question_kandev";
/** The `mcpServers` entry name agentctl uses. */
export const KANDEV_SERVER_NAME = "kandev";
/** What `wait-signal` waits for. */
export const GATE_SIGNAL = "SIGUSR2";
const CALL_TIMEOUT_MS = 3 * 60 * 60_000;

export const ONE_QUESTION = {
  questions: [
    {
      id: "database",
      title: "Database",
      prompt: "Which database should the service use?",
      options: [
        { id: "postgres", label: "Postgres", description: "Shared server, the team's default" },
        { id: "sqlite", label: "SQLite", description: "One file, no server" },
      ],
    },
  ],
};

export const THREE_QUESTIONS = {
  questions: [
    {
      id: "database",
      title: "Database",
      prompt: "Which database should the service use?",
      options: [
        { id: "postgres", label: "Postgres" },
        { id: "sqlite", label: "SQLite" },
      ],
    },
    {
      id: "auth",
      title: "Auth",
      prompt: "How should users sign in?",
      options: [
        { id: "password", label: "Password" },
        { id: "sso", label: "SSO" },
        { id: "magic-link", label: "Magic link" },
      ],
    },
    {
      id: "deploy",
      title: "Deploy",
      prompt: "Where does it run?",
      options: [
        { id: "fly", label: "Fly.io" },
        { id: "k8s", label: "Kubernetes" },
      ],
    },
  ],
};

/** What the rest of the prompt asks for (pure). Throws on JSON that does not parse. */
export function parseKandevRest(rest: string, defaults: unknown): { waitSignal: boolean; args: unknown } {
  let text = rest.trim();
  const waitSignal = /^wait-signal\b/.test(text);
  if (waitSignal) text = text.slice("wait-signal".length).trim();
  return { waitSignal, args: text.length > 0 ? (JSON.parse(text) as unknown) : defaults };
}

/** The kandev http MCP server among a session's `mcpServers`, if the client sent one. */
export function findKandevServer(servers: readonly acp.McpServer[]): { url: string; headers: Record<string, string> } | null {
  for (const s of servers) {
    if ("type" in s && s.type === "http" && s.name === KANDEV_SERVER_NAME) {
      return { url: s.url, headers: Object.fromEntries(s.headers.map((h) => [h.name, h.value])) };
    }
  }
  return null;
}

/** Joins the text blocks of an MCP tool result. */
export function toolResultText(result: object): string {
  const raw = (result as { content?: unknown }).content;
  const content = Array.isArray(raw) ? (raw as Array<{ type?: unknown; text?: unknown }>) : [];
  return content
    .filter((c) => c.type === "text" && typeof c.text === "string")
    .map((c) => c.text as string)
    .join("\n");
}

/** Resolves true on the signal, false when the turn is cancelled first. */
function waitForSignal(name: NodeJS.Signals, turn: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (turn.aborted) return resolve(false);
    const cleanup = () => {
      process.off(name, onSignal);
      turn.removeEventListener("abort", onAbort);
    };
    const onSignal = () => (cleanup(), resolve(true));
    const onAbort = () => (cleanup(), resolve(false));
    process.on(name, onSignal);
    turn.addEventListener("abort", onAbort, { once: true });
  });
}

type CallOutcome = { ok: true; text: string } | { ok: false; text: string };

async function callKandevTool(ctx: ScenarioContext, server: { url: string; headers: Record<string, string> }, args: unknown): Promise<CallOutcome> {
  const client = new Client({ name: "kandev-mock-agent", version: "0.1.0" });
  const transport = new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: server.headers } });
  try {
    await client.connect(transport, { signal: ctx.signal });
    const tools = await client.listTools(undefined, { signal: ctx.signal });
    if (!tools.tools.some((t) => t.name === KANDEV_TOOL)) return { ok: false, text: `the kandev server does not list ${KANDEV_TOOL}` };
    const result = await client.callTool({ name: KANDEV_TOOL, arguments: args as Record<string, unknown> }, undefined, {
      signal: ctx.signal,
      timeout: CALL_TIMEOUT_MS,
    });
    return { ok: result.isError !== true, text: toolResultText(result) };
  } catch (err) {
    return { ok: false, text: err instanceof Error ? err.message : String(err) };
  } finally {
    // Closing the transport also aborts an HTTP request still in flight (a cancelled call).
    await client.close().catch(() => {});
  }
}

let toolCalls = 0;

function kandevScenario(description: string, defaults: unknown): Scenario {
  return {
    description,
    async run(ctx) {
      let plan: { waitSignal: boolean; args: unknown };
      try {
        plan = parseKandevRest(ctx.rest, defaults);
      } catch (err) {
        await ctx.say(`kandev tool error: bad scenario input: ${err instanceof Error ? err.message : String(err)}`);
        return "end_turn";
      }
      const server = findKandevServer(ctx.mcpServers);
      if (server === null) {
        await ctx.say(`kandev tool error: no "${KANDEV_SERVER_NAME}" http MCP server in session/new`);
        return "end_turn";
      }
      if (plan.waitSignal) {
        const gate = waitForSignal(GATE_SIGNAL, ctx.signal);
        await ctx.say(`kandev tool: waiting for ${GATE_SIGNAL}\n`);
        if (!(await gate)) return "cancelled";
      }
      toolCalls += 1;
      const toolCallId = `mock-kandev-${toolCalls}`;
      await ctx.update({ sessionUpdate: "tool_call", toolCallId, title: KANDEV_TOOL, kind: "other", status: "in_progress" });
      const outcome = await callKandevTool(ctx, server, plan.args);
      // agentctl abandons the question as soon as the operator cancels the turn, and its error
      // result can arrive before session/cancel does (HTTP and stdio race): a real agent is told to
      // stop a moment later, so the mock ends the turn cancelled either way.
      if (ctx.signal.aborted || (!outcome.ok && /\bturn_cancelled\b/.test(outcome.text))) {
        await ctx.update({ sessionUpdate: "tool_call_update", toolCallId, status: "failed" });
        return "cancelled";
      }
      await ctx.update({ sessionUpdate: "tool_call_update", toolCallId, status: outcome.ok ? "completed" : "failed" });
      await ctx.say(`kandev tool ${outcome.ok ? "result" : "error"}: ${outcome.text}`);
      return "end_turn";
    },
  };
}

/** The kandev-question scenarios, spread into the mock agent's registry. */
export const kandevQuestionScenarios: ScenarioRegistry = {
  "kandev-question": kandevScenario("asks ask_user_question_kandev one question (2 options) over MCP", ONE_QUESTION),
  "kandev-question-multi": kandevScenario("asks ask_user_question_kandev a 3-question bundle over MCP", THREE_QUESTIONS),
};
