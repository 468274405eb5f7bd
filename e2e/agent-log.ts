import fs from "node:fs";

/** One line of the mock agent's MOCK_AGENT_LOG: a JSON-RPC frame it sent ("out") or received ("in"). */
export interface FrameLine {
  dir: "in" | "out";
  frame: { id?: string | number; method?: string; params?: unknown; result?: unknown; error?: unknown };
  ts: number;
}

/** One `elicitation/create` the agent sent and what the client answered (if it has yet). */
export interface Exchange {
  id: string | number;
  params: Record<string, unknown>;
  response?: unknown;
  error?: unknown;
  askedAt: number;
  answeredAt?: number;
}

export function readFrames(file: string): FrameLine[] {
  if (!fs.existsSync(file)) return [];
  return fs
    .readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim().length > 0)
    .map((l) => JSON.parse(l) as FrameLine);
}

/** Every elicitation/create of the log, in the order the agent sent them, with the client's answer. */
export function elicitations(frames: FrameLine[]): Exchange[] {
  const asked = frames.filter((f) => f.dir === "out" && f.frame.method === "elicitation/create" && f.frame.id !== undefined);
  return asked.map((a) => {
    const answer = frames.find((f) => f.dir === "in" && f.frame.id === a.frame.id && f.frame.method === undefined);
    return {
      id: a.frame.id as string | number,
      params: (a.frame.params ?? {}) as Record<string, unknown>,
      response: answer?.frame.result,
      error: answer?.frame.error,
      askedAt: a.ts,
      answeredAt: answer?.ts,
    };
  });
}

/** The `session/prompt` requests the agent received, each with the stop reason it answered. */
export function prompts(frames: FrameLine[]): Array<{ id: string | number; stopReason?: string; at: number; endedAt?: number }> {
  return frames
    .filter((f) => f.dir === "in" && f.frame.method === "session/prompt")
    .map((p) => {
      const end = frames.find((f) => f.dir === "out" && f.frame.id === p.frame.id && f.frame.method === undefined);
      const result = end?.frame.result as { stopReason?: string } | undefined;
      return { id: p.frame.id as string | number, stopReason: result?.stopReason, at: p.ts, endedAt: end?.ts };
    });
}

/** The text of every agent_message_chunk the agent sent, joined. */
export function agentText(frames: FrameLine[]): string {
  return frames
    .filter((f) => f.dir === "out" && f.frame.method === "session/update")
    .map((f) => {
      const update = (f.frame.params as { update?: { sessionUpdate?: string; content?: { type?: string; text?: string } } })?.update;
      return update?.sessionUpdate === "agent_message_chunk" && update.content?.type === "text" ? (update.content.text ?? "") : "";
    })
    .join("");
}
