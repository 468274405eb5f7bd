// Classifies JSON-RPC frames seen on the probe's stdio link, in order, naming each response after
// the request it answers. Pure: the probe feeds it the frames it reads and writes.

/** Who sent the frame. */
export type Direction = "client->agent" | "agent->client";

export interface WireEntry {
  dir: Direction;
  kind: "request" | "notification" | "result" | "error";
  method: string;
  id?: string | number;
  /** JSON-RPC error code, for `error` entries. */
  code?: number;
}

type Json = Record<string, unknown>;

function isId(v: unknown): v is string | number {
  return typeof v === "string" || typeof v === "number";
}

/** Records frames and keeps, per direction, which method each outstanding request id was. */
export class WireRecorder {
  readonly entries: WireEntry[] = [];
  /** Request ids by sender: an answer travels the other way. */
  private readonly outstanding: Record<Direction, Map<string | number, string>> = {
    "client->agent": new Map(),
    "agent->client": new Map(),
  };

  record(dir: Direction, frame: unknown): WireEntry | null {
    if (typeof frame !== "object" || frame === null) return null;
    const f = frame as Json;
    const method = typeof f.method === "string" ? (f.method as string) : undefined;
    const id = isId(f.id) ? f.id : undefined;
    let entry: WireEntry;
    if (method !== undefined) {
      if (id !== undefined) {
        this.outstanding[dir].set(id, method);
        entry = { dir, kind: "request", method, id };
      } else {
        entry = { dir, kind: "notification", method };
      }
    } else if (id !== undefined && ("result" in f || "error" in f)) {
      const askedBy: Direction = dir === "client->agent" ? "agent->client" : "client->agent";
      const asked = this.outstanding[askedBy].get(id);
      this.outstanding[askedBy].delete(id);
      entry = { dir, kind: "error" in f ? "error" : "result", method: asked ?? "(unknown request)", id };
      const err = f.error;
      if (entry.kind === "error" && typeof err === "object" && err !== null && typeof (err as Json).code === "number") {
        entry.code = (err as Json).code as number;
      }
    } else {
      entry = { dir, kind: "notification", method: "(unrecognised frame)" };
    }
    this.entries.push(entry);
    return entry;
  }
}

/** One line per entry, e.g. `-> session/prompt`, `<- session/prompt (result)`, `<- elicitation/create`. */
export function entryLine(e: WireEntry): string {
  const arrow = e.dir === "client->agent" ? "->" : "<-";
  switch (e.kind) {
    case "request":
      return `${arrow} ${e.method}`;
    case "notification":
      return `${arrow} ${e.method} (notification)`;
    case "result":
      return `${arrow} ${e.method} (result)`;
    case "error":
      return `${arrow} ${e.method} (error${e.code !== undefined ? ` ${e.code}` : ""})`;
    default: {
      const _x: never = e.kind;
      return _x;
    }
  }
}

/** The method sequence as lines, consecutive repeats folded into `line ×N` (streams of updates). */
export function sequenceLines(entries: readonly WireEntry[]): string[] {
  const out: string[] = [];
  let last: string | null = null;
  let count = 0;
  const flush = () => {
    if (last !== null) out.push(count > 1 ? `${last} ×${count}` : last);
  };
  for (const e of entries) {
    const line = entryLine(e);
    if (line === last) {
      count += 1;
      continue;
    }
    flush();
    last = line;
    count = 1;
  }
  flush();
  return out;
}
