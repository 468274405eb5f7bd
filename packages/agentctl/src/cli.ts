#!/usr/bin/env node
// agentctl: one process per host, running every session's agent there. It speaks the agent stream
// over its own stdin/stdout (one JSON envelope per line, see stdio-channel.ts); logs go to stderr.
// It exits when stdin ends (the backend died) or on SIGTERM/SIGINT, stopping every agent first.
import { startAgentctl } from "./agentctl.js";
import { baseAgentEnv, loadEnv } from "./env.js";

const log = (message: string) => process.stderr.write(`${message}\n`);

function refuse(message: string): never {
  log(`agentctl: ${message}`);
  process.exit(2);
}

function main(): void {
  if (process.argv.length > 2) refuse(`unknown argument "${process.argv[2]}" (agentctl takes none: it speaks on its stdin and stdout)`);
  let env: ReturnType<typeof loadEnv>;
  try {
    env = loadEnv();
  } catch (err) {
    refuse((err as Error).message);
  }
  const handle = startAgentctl({
    input: process.stdin,
    output: process.stdout,
    timeouts: env.timeouts,
    agentEnv: baseAgentEnv(),
    log,
  });

  let stopping = false;
  const stop = (why: string) => {
    if (stopping) return;
    stopping = true;
    log(`agentctl: stopping (${why})`);
    // The backend expects us gone within a few seconds whatever the agents do.
    setTimeout(() => {
      log("agentctl: shutdown took too long; exiting anyway");
      process.exit(0);
    }, 5000).unref();
    handle.close().then(
      () => process.exit(0),
      (err: unknown) => {
        log(`agentctl: error during shutdown: ${err instanceof Error ? err.message : String(err)}`);
        process.exit(0);
      },
    );
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
  void handle.ended.then(stop);
}

try {
  main();
} catch (err) {
  log(`agentctl: failed to start: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
}
