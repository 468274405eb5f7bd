/**
 * One channel to one agentctl: lines in, lines out (each line one JSON envelope). It knows
 * nothing of ids or sessions (agentctl-client.ts does). Today's only kind spawns agentctl on this
 * host and speaks over its stdio (stdio-transport.ts); agentctl on another host over SSH is one
 * more implementation of this interface, its sessions multiplexed the same way.
 */
export interface Transport {
  /** Writes one line (without its newline). Throws NOT_CONNECTED once the channel is closed. */
  send(line: string): void;
  /** Sets the receiver of every complete line, in order (one receiver). */
  onLine(receiver: (line: string) => void): void;
  /**
   * Settles once, when the channel is gone for good: with the reason when it was lost (agentctl
   * exited, the pipe broke), undefined when `close()` ended it.
   */
  readonly closed: Promise<Error | undefined>;
  /** Ends the channel (and the agentctl behind it); resolves once it is gone. Idempotent. */
  close(): Promise<void>;
}
