// What every relay process of the floor and the lean board shares, none of it on a message's path:
// connecting to the relay agentctls, announcing the listening port, and stopping.
import WebSocket from "ws";

/** One WebSocket client per relay agentctl port, in order; rejects if any cannot connect. */
export function connectAll(ports) {
  return Promise.all(
    ports.map(
      (port) =>
        new Promise((resolve, reject) => {
          const ws = new WebSocket(`ws://127.0.0.1:${port}/`, { perMessageDeflate: false });
          ws.once("open", () => {
            // A relay agentctl gone is a session that can never finish: stop, so the bench's run
            // fails with a reason (its WebSocket to us closes) instead of waiting forever.
            ws.once("close", () => {
              process.stderr.write(`relay backend: the relay agentctl on port ${port} closed its WebSocket; stopping\n`);
              process.exit(1);
            });
            resolve(ws);
          });
          ws.once("error", reject);
        }),
    ),
  );
}

/**
 * Listens on a free loopback port and prints {"event":"listening","port":N} (what the bench waits
 * for); `stop` runs on SIGTERM or when stdin closes, and the process then exits.
 */
export function serve(server, stop = () => {}) {
  server.listen(0, "127.0.0.1", () => process.stdout.write(`${JSON.stringify({ event: "listening", port: server.address().port })}\n`));
  const exit = () => {
    stop();
    process.exit(0);
  };
  process.on("SIGTERM", exit);
  process.stdin.on("end", exit);
  process.stdin.resume();
}
