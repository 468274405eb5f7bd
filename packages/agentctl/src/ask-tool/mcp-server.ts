/**
 * The board's MCP tool server, hosted by agentctl on loopback and handed to the agent in
 * `session/new`. Its one tool, `ask_user_question_kandev`, is relayed to the backend over the agent
 * stream; the backend owns validation, the clarification record and the wait for the operator.
 *
 * The URL carries a random path secret so other local processes cannot call the tool.
 */
import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { KANDEV_TOOL_NAME, KandevToolInputSchema } from "@kandev/protocol";

/** Relays one tool call to the backend; resolves with the text the agent gets back. */
export type KandevToolRelay = (args: unknown, signal: AbortSignal) => Promise<string>;

export interface KandevToolServer {
  /** Streamable-HTTP MCP endpoint, including its secret path. */
  url: string;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 256 * 1024;

function buildMcpServer(relay: KandevToolRelay): McpServer {
  const server = new McpServer({ name: "kandev", version: "0.1.0" });
  server.registerTool(
    KANDEV_TOOL_NAME,
    {
      description:
        "Ask the human operator 1-4 structured questions (2-6 options each) and wait for the answer. " +
        "Use it when you need a decision only a human can make; the operator may also type their own answer.",
      inputSchema: KandevToolInputSchema.shape,
    },
    async (args, extra) => {
      try {
        const text = await relay(args, extra.signal);
        return { content: [{ type: "text" as const, text }] };
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        return { isError: true, content: [{ type: "text" as const, text: `The question could not be asked: ${message}` }] };
      }
    },
  );
  return server;
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw Object.assign(new Error("body too large"), { status: 413 });
    chunks.push(chunk as Buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch {
    throw Object.assign(new Error("body is not JSON"), { status: 400 });
  }
}

function sendError(res: ServerResponse, status: number, message: string): void {
  if (res.headersSent) return;
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32600, message }, id: null }));
}

/** Starts the tool server on 127.0.0.1 and a free port. Stateless: one MCP server per request. */
export async function startKandevToolServer(opts: {
  relay: KandevToolRelay;
  host?: string;
  /** SSE keep-alive interval while a call waits (tests shorten it). */
  keepAliveMs?: number;
}): Promise<KandevToolServer> {
  const secret = randomBytes(16).toString("hex");
  const path = `/mcp/${secret}`;
  const httpServer: Server = createServer((req, res) => {
    if ((req.url ?? "").split("?")[0] !== path) return sendError(res, 404, "not found");
    if (req.method !== "POST") return sendError(res, 405, "only POST is served (stateless MCP)");
    void (async () => {
      const body = await readJson(req);
      const server = buildMcpServer(opts.relay);
      // SSE, not a JSON response: the operator may take hours, and HTTP clients give up on a
      // response whose headers or body bytes stop coming (Node's fetch: 5 minutes). SSE sends the
      // headers at once and a keep-alive comment every 15 s until the answer arrives.
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, keepAliveMs: opts.keepAliveMs ?? 15_000 });
      res.on("close", () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(req, res, body);
    })().catch((err: unknown) => {
      const status = typeof (err as { status?: unknown }).status === "number" ? (err as { status: number }).status : 500;
      sendError(res, status, err instanceof Error ? err.message : String(err));
    });
  });
  await new Promise<void>((resolve, reject) => {
    httpServer.once("error", reject);
    httpServer.listen(0, opts.host ?? "127.0.0.1", () => resolve());
  });
  const { port } = httpServer.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${path}`,
    close: () =>
      new Promise<void>((resolve) => {
        httpServer.closeAllConnections();
        httpServer.close(() => resolve());
      }),
  };
}
