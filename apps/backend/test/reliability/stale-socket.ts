// One retry rule for the reliability tests' HTTP calls, which share their process with the board.

/**
 * fetch on a kept-alive socket the board closed as idle in the same instant (its keep-alive timer,
 * KEEP_ALIVE_TIMEOUT_MS in server.ts, and the request meet when the loop was busy; rare since that
 * timer is 65 s, as undici then closes first): no byte of the request was read, so a retry is
 * safe. undici reports it as UND_ERR_SOCKET when the board's close arrives first (a FIN), and
 * as ECONNRESET when the request was already in the socket the board closed (the kernel answers a
 * close with unread data by a reset). The board is in the test's process, so a reset is never its
 * crash.
 */
export const STALE_SOCKET_CODES: ReadonlySet<string> = new Set(["UND_ERR_SOCKET", "ECONNRESET"]);

/**
 * How many times one call is tried. More than two: undici's pool can hold several sockets that
 * went stale together (every one idle since the same busy moment), and a retry takes the next one.
 * Seen in CI on a slower machine: ECONNRESET twice on one POST .../respond of the soak.
 */
export const STALE_SOCKET_ATTEMPTS = 4;

/** The undici error code under a fetch failure, if any. */
export function fetchFailureCode(err: unknown): string | undefined {
  const code = (err as { cause?: { code?: unknown } } | null)?.cause?.code;
  return typeof code === "string" ? code : undefined;
}

/**
 * Runs `call`, again when it failed on a stale socket, at most STALE_SOCKET_ATTEMPTS times in all.
 * Every retry is counted in `retries` (the tests report it: counted, not hidden). Any other
 * failure, and the last stale one, is thrown as it came.
 */
export async function retryOnStaleSocket<T>(call: () => Promise<T>, retries: { count: number }): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await call();
    } catch (err) {
      const code = fetchFailureCode(err);
      if (code === undefined || !STALE_SOCKET_CODES.has(code) || attempt >= STALE_SOCKET_ATTEMPTS) throw err;
      retries.count += 1;
    }
  }
}
