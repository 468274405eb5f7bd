// The ACP client side of agentctl: connects to the agent's stdio and routes its requests.
import type { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk";
import { ACP_MAX_FRAME_BYTES, guardAcpMessage } from "./acp-guard.js";
import { stdioJsonStream } from "@kandev/acp-stdio";
import { rawElicitationParams } from "./elicitation/index.js";
import { UpdateBarrier } from "./update-barrier.js";

export interface AcpClientHooks {
  onSessionUpdate: (notification: acp.SessionNotification) => void;
  onPermission: (params: acp.RequestPermissionRequest, signal: AbortSignal) => Promise<acp.RequestPermissionResponse>;
  /** Gets the params exactly as received: the elicitation manager validates them itself. */
  onElicitation: (params: unknown, signal: AbortSignal) => Promise<acp.CreateElicitationResponse>;
  /** Any frame arrived from the agent (feeds the idle watchdog). */
  onActivity: () => void;
  /** Diagnostics: messages the guard replaced or dropped (acp-guard.ts). */
  log: (message: string) => void;
}

/** An ACP connection plus the barrier that orders turn ends after their updates. */
export interface AcpLink {
  connection: acp.ClientConnection;
  /** Resolves once every `session/update` read so far has gone through `onSessionUpdate`. */
  updatesDrained(): Promise<void>;
}

function isSessionUpdateNotification(message: acp.AnyMessage): boolean {
  return typeof message === "object" && message !== null && "method" in message && message.method === "session/update" && !("id" in message);
}

/** Connects an ACP client app to the agent's stdin/stdout. */
export function connectAcp(
  stdio: { stdin: NodeJS.WritableStream & Writable; stdout: NodeJS.ReadableStream & Readable },
  hooks: AcpClientHooks,
): AcpLink {
  const barrier = new UpdateBarrier();
  const stream = stdioJsonStream(stdio.stdin, stdio.stdout, {
    maxMessageBytes: ACP_MAX_FRAME_BYTES,
    onMessage(raw) {
      hooks.onActivity();
      const verdict = guardAcpMessage(raw);
      if (verdict.action === "drop") {
        hooks.log(`agentctl: ACP ${verdict.note}`);
        return null;
      }
      const message = verdict.action === "replace" ? verdict.message : raw;
      if (verdict.action === "replace") hooks.log(`agentctl: ACP ${verdict.note}`);
      if (isSessionUpdateNotification(message as acp.AnyMessage)) barrier.seen();
      return message as acp.AnyMessage;
    },
  });
  const app = acp
    .client({ name: "kandev-agentctl" })
    .onNotification(acp.methods.client.session.update, ({ params }) => {
      barrier.handled();
      hooks.onSessionUpdate(params);
    })
    .onRequest(acp.methods.client.session.requestPermission, ({ params, signal }) => hooks.onPermission(params, signal))
    // rawElicitationParams replaces the SDK's params schema, so a malformed body is declined by the
    // manager instead of being answered -32602 by the SDK before any handler runs (AC-18). The SDK
    // answers with its JSON-RPC envelope; `signal` aborts on the agent's $/cancel_request (-32800)
    // and when the connection closes.
    .onRequest(acp.methods.client.elicitation.create, rawElicitationParams, ({ params, signal }) => hooks.onElicitation(params, signal));
  const connection = app.connect({ readable: stream.readable, writable: stream.writable });
  return { connection, updatesDrained: () => barrier.drain() };
}

/** Turns a failed ACP request into the pieces agentctl reports (`turn.ended.error`, error details). */
export function acpErrorInfo(err: unknown): { code: string | number; message: string } {
  if (err instanceof acp.RequestError) return { code: err.code, message: err.message };
  if (err instanceof Error) return { code: "ACP_ERROR", message: err.message };
  return { code: "ACP_ERROR", message: String(err) };
}
