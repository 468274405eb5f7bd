#!/usr/bin/env node
// agentctl: one process per agent session. Prints {"event":"listening","port":N} when ready; logs
// go to stderr. Exits when stdin ends (the parent died) or on SIGTERM/SIGINT.
import { parseArgs } from "./args.js";
import { startAgentctl } from "./agentctl.js";
import { baseAgentEnv, loadEnv } from "./env.js";

const log = (message: string) => process.stderr.write(`${message}\n`);

function refuse(message: string): never {
  log(`agentctl: ${message}`);
  process.exit(2);
}

async function main(): Promise<void> {
  let args;
  let env;
  try {
    args = parseArgs(process.argv.slice(2));
  } catch (err) {
    refuse((err as Error).message);
  }
  try {
    env = loadEnv();
  } catch (err) {
    refuse((err as Error).message);
  }
  const token = args.token ?? env.token;
  if (token === undefined || token.length === 0) refuse("no token: pass --token <T> or set AGENTCTL_TOKEN");

  const handle = await startAgentctl({
    token,
    host: args.host,
    port: args.port,
    timeouts: env.timeouts,
    agentEnv: baseAgentEnv(),
    log,
  });
  process.stdout.write(`${JSON.stringify({ event: "listening", port: handle.port })}\n`);

  let stopping = false;
  const stop = (why: string) => {
    if (stopping) return;
    stopping = true;
    log(`agentctl: stopping (${why})`);
    // The backend expects us gone within a few seconds whatever the agent does.
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
  if (args.watchStdin) {
    process.stdin.on("end", () => stop("stdin closed"));
    process.stdin.on("error", () => stop("stdin error"));
    process.stdin.resume();
  }
}

main().catch((err: unknown) => {
  log(`agentctl: failed to start: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
