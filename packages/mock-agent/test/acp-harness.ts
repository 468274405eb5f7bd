// Drives the BUILT mock agent (dist/cli.js) with a real ACP client over real pipes.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { fileURLToPath } from "node:url";
import { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk";

export const MOCK_AGENT_CLI = fileURLToPath(new URL("../dist/cli.js", import.meta.url));

export interface Harness {
  child: ChildProcessWithoutNullStreams;
  agent: acp.ClientContext;
  connection: acp.ClientConnection;
  updates: acp.SessionNotification[];
  stderr: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Answer for the next permission request; default picks the first option. */
  onPermission: (req: acp.RequestPermissionRequest, signal: AbortSignal) => Promise<acp.RequestPermissionResponse>;
  kill(): void;
}

export function startMockAgent(env: Record<string, string> = {}): Harness {
  const child = spawn(process.execPath, [MOCK_AGENT_CLI], { env: { ...process.env, ...env }, stdio: "pipe" });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("close", (code, signal) => resolve({ code, signal })),
  );
  const updates: acp.SessionNotification[] = [];
  const harness: Partial<Harness> = {
    child,
    updates,
    stderr: () => stderr,
    exited,
    onPermission: async (req) => ({ outcome: { outcome: "selected", optionId: req.options[0]!.optionId } }),
    kill: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    },
  };
  const app = acp
    .client({ name: "mock-agent-test" })
    .onNotification(acp.methods.client.session.update, ({ params }) => {
      updates.push(params);
    })
    .onRequest(acp.methods.client.session.requestPermission, ({ params, signal }) => harness.onPermission!(params, signal));
  const connection = app.connect(
    acp.ndJsonStream(Writable.toWeb(child.stdin) as WritableStream<Uint8Array>, Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>),
  );
  harness.connection = connection;
  harness.agent = connection.agent;
  return harness as Harness;
}

export async function initAndSession(h: Harness): Promise<string> {
  await h.agent.request(acp.methods.agent.initialize, {
    protocolVersion: acp.PROTOCOL_VERSION,
    clientCapabilities: { elicitation: { form: {} } },
  });
  const s = await h.agent.request(acp.methods.agent.session.new, { cwd: process.cwd(), mcpServers: [] });
  return s.sessionId;
}

export function prompt(h: Harness, sessionId: string, text: string, options?: acp.SendRequestOptions) {
  return h.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text }] }, options);
}

/** Text of the agent_message_chunk updates, in order. */
export function agentText(updates: readonly acp.SessionNotification[]): string[] {
  return updates.flatMap((n) =>
    n.update.sessionUpdate === "agent_message_chunk" && n.update.content.type === "text" ? [n.update.content.text] : [],
  );
}

/** Polls `predicate` every 10 ms until true or `timeoutMs` passes (then throws). */
export async function waitUntil(predicate: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
