import type { Message, MessageAppended, Session, Task } from "@kandev/protocol";

/** An entity that arrived over the WebSocket. */
export type LiveEntity = { kind: "task"; value: Task } | { kind: "session"; value: Session } | { kind: "message"; value: Message };

/**
 * Closes the race between a REST fetch and the live stream. A WS update that arrives while a fetch
 * is in flight may be newer than what the fetch read (the server persists, then broadcasts), and
 * react-query would overwrite it with the older snapshot when the fetch resolves. The ledger keeps
 * the entities received during any in-flight fetch so each fetch can lay them over its result.
 * Nothing is kept while no fetch runs, so it never grows without bound.
 */
export class LiveLedger {
  private seq = 0;
  private inFlight = 0;
  private readonly recent = new Map<string, { seq: number; entity: LiveEntity }>();
  /** Streamed-text deltas, all of them in order (each adds to the last): message-append.ts lays them on a fetch. */
  private readonly appends: Array<{ seq: number; append: MessageAppended }> = [];

  /** Records an entity received over WS (kept only while a fetch is in flight). */
  note(entity: LiveEntity): void {
    this.seq += 1;
    if (this.inFlight > 0) this.recent.set(`${entity.kind}:${entity.value.id}`, { seq: this.seq, entity });
  }

  /** Records a delta of streamed text received over WS (kept only while a fetch is in flight). */
  noteAppend(append: MessageAppended): void {
    this.seq += 1;
    if (this.inFlight > 0) this.appends.push({ seq: this.seq, append });
  }

  /** Runs `fetcher` and returns its value plus the live entities and deltas that arrived after it started. */
  async track<T>(fetcher: () => Promise<T>): Promise<{ value: T; live: LiveEntity[]; appends: MessageAppended[] }> {
    const start = this.seq;
    this.inFlight += 1;
    try {
      const value = await fetcher();
      const live = [...this.recent.values()].filter((e) => e.seq > start).map((e) => e.entity);
      const appends = this.appends.filter((a) => a.seq > start).map((a) => a.append);
      return { value, live, appends };
    } finally {
      this.inFlight -= 1;
      if (this.inFlight === 0) {
        this.recent.clear();
        this.appends.length = 0;
      }
    }
  }
}

export function liveTasks(live: readonly LiveEntity[]): Task[] {
  return live.flatMap((e) => (e.kind === "task" ? [e.value] : []));
}
export function liveSessions(live: readonly LiveEntity[]): Session[] {
  return live.flatMap((e) => (e.kind === "session" ? [e.value] : []));
}
export function liveMessages(live: readonly LiveEntity[], sessionId: string): Message[] {
  return live.flatMap((e) => (e.kind === "message" && e.value.session_id === sessionId ? [e.value] : []));
}

/** Replaces items by id and appends new ones, then sorts stably with `compare`. */
function upsertAll<T extends { id: string }>(base: readonly T[], updates: readonly T[], compare: (a: T, b: T) => number): T[] {
  if (updates.length === 0) return [...base];
  const out = [...base];
  const index = new Map(out.map((item, i) => [item.id, i]));
  for (const item of updates) {
    const at = index.get(item.id);
    if (at === undefined) {
      index.set(item.id, out.length);
      out.push(item);
    } else {
      out[at] = item;
    }
  }
  return out.sort(compare);
}

const newestFirst = (a: Task, b: Task) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : 0);
const oldestFirst = (a: Message, b: Message) => (a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : 0);

/** The board's list with updates applied, newest first (the API's order). */
export function mergeTasks(list: readonly Task[], updates: readonly Task[]): Task[] {
  return upsertAll(list, updates, newestFirst);
}

/** A session's transcript with updates applied, in creation order (ties keep arrival order). */
export function mergeMessages(list: readonly Message[], updates: readonly Message[]): Message[] {
  return upsertAll(list, updates, oldestFirst);
}

/** A single entity: the last live version of it, if one arrived during the fetch, wins. */
export function latest<T extends { id: string }>(fetched: T, live: readonly T[]): T {
  let out = fetched;
  for (const item of live) if (item.id === fetched.id) out = item;
  return out;
}
