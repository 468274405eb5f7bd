// The board's stdout and stderr can lose their reader while it runs: the terminal that started it
// closed, or the supervisor reading its pipes died. A write then fails with EPIPE. Left unhandled
// that error kills the board at its next log line; with the web app's console hooks installed, the
// error's own report is written to the same dead stream and the board spins on it at full CPU,
// deaf to SIGTERM. The board's work does not depend on anyone reading its logs, so it drops them.

/** Makes write errors on the given streams (default: stdout and stderr) drop the output, not the board. */
export function dropOutputWhenUnread(streams: readonly NodeJS.WritableStream[] = [process.stdout, process.stderr]): void {
  for (const stream of streams) {
    stream.on("error", () => {
      // Nobody reads this stream any more: nothing to report the failure to, and nothing is lost.
    });
  }
}
