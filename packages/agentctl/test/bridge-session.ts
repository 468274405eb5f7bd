// The real Claude bridge's coding session, as captured by `npm run fixtures:capture` into
// test/fixtures/bridge-<version>/wire-coding-session.json: one copy of the frames, read by every
// test that checks a mapping against what the bridge really sends.
import { readFileSync } from "node:fs";
import type * as acp from "@agentclientprotocol/sdk";

export const BRIDGE_VERSIONS = ["0.65.0", "0.101.0"] as const;

export interface WireFrame {
  dir: string;
  msg: Record<string, unknown>;
}

/** Every frame of the captured session, in the order it crossed the wire. */
export function wireFrames(version: string): WireFrame[] {
  const url = new URL(`./fixtures/bridge-${version}/wire-coding-session.json`, import.meta.url);
  return (JSON.parse(readFileSync(url, "utf8")) as { frames: WireFrame[] }).frames;
}

/** The `session/update` notifications the bridge sent, unwrapped. */
export function sessionUpdates(version: string): acp.SessionUpdate[] {
  return wireFrames(version)
    .filter((f) => f.dir === "agent->client" && f.msg.method === "session/update")
    .map((f) => (f.msg.params as { update: acp.SessionUpdate }).update);
}

/** The updates of the session's first tool call (its `tool_call` and every `tool_call_update`), in order. */
export function firstToolCallUpdates(version: string): acp.SessionUpdate[] {
  const updates = sessionUpdates(version);
  const start = updates.find((u) => u.sessionUpdate === "tool_call");
  if (start?.sessionUpdate !== "tool_call") throw new Error(`no tool call in the bridge ${version} session`);
  return updates.filter((u) => (u.sessionUpdate === "tool_call" || u.sessionUpdate === "tool_call_update") && u.toolCallId === start.toolCallId);
}
