/**
 * Write coalescing for the processes that push frames over WebSockets (the backend's /ws hub,
 * agentctl's agent stream). Each `ws.send` is its own write syscall; one agent event becomes
 * several browser frames, and one answer becomes agentctl's settle event plus its response. A
 * socket corked for the rest of the current tick sends them all in one write, with no delay: the
 * flush runs as soon as the work that wrote them is done (`schedule`: `process.nextTick` for
 * synchronous work, `setImmediate` to include promise continuations of the same I/O event).
 */

/** The part of a net.Socket (or any Node Writable) a TickCork needs. */
export interface Corkable {
  cork(): void;
  uncork(): void;
}

export class TickCork {
  private readonly corked = new Set<Corkable>();

  constructor(private readonly schedule: (flush: () => void) => void) {}

  /** Corks `stream` (once) until the scheduled flush; the first cork of a tick schedules it. */
  cork(stream: Corkable): void {
    if (this.corked.has(stream)) return;
    if (this.corked.size === 0) this.schedule(() => this.flush());
    this.corked.add(stream);
    stream.cork();
  }

  /** Uncorks every stream corked since the last flush, in the order they were corked. */
  flush(): void {
    if (this.corked.size === 0) return;
    const streams = [...this.corked];
    this.corked.clear();
    for (const s of streams) s.uncork();
  }
}

/**
 * The net.Socket under a `ws` WebSocket (the library keeps it as `_socket` and has no public cork),
 * or undefined when it is not there, in which case frames simply go out one write each.
 */
export function rawSocketOf(ws: object): Corkable | undefined {
  const socket = (ws as { _socket?: unknown })._socket;
  if (typeof socket !== "object" || socket === null) return undefined;
  const s = socket as Partial<Corkable>;
  return typeof s.cork === "function" && typeof s.uncork === "function" ? (socket as Corkable) : undefined;
}
