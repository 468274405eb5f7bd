#!/usr/bin/env node
// `npm start`: reads the environment, starts the board, and stops it cleanly on SIGINT/SIGTERM
// (every agentctl child is stopped and the database closed before the process exits).
import { loadEnv } from "./env.js";
import { createLogger } from "./logger.js";
import { dropOutputWhenUnread } from "./output.js";
import { startServer } from "./server.js";

async function main(): Promise<void> {
  dropOutputWhenUnread();
  const logger = createLogger("info");
  let env: ReturnType<typeof loadEnv>;
  try {
    env = loadEnv();
  } catch (err) {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(2);
  }
  const server = await startServer({
    dbPath: env.dbPath,
    host: env.host,
    port: env.port,
    profile: env.profile,
    flagEnv: env.flagEnv,
    allowedOrigins: env.allowedOrigins,
    timeouts: env.timeouts,
    serveWeb: env.serveWeb,
    webDir: env.webDir,
    childEnv: env.childEnv,
    agentDirs: env.agentDirs,
    worktreesDir: env.worktreesDir,
    ...(env.initializeTimeoutMs !== undefined && { initializeTimeoutMs: env.initializeTimeoutMs }),
    sessionIdleTimeoutMs: env.sessionIdleTimeoutMs,
    auth: env.auth,
    logger,
  });
  process.stdout.write(`Kandev board: ${server.url}${env.auth ? " (sign-in required)" : ""}\n`);

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info("shutting down", { signal });
    server.close().then(
      () => process.exit(0),
      (err: unknown) => {
        logger.error("shutdown failed", { error: err instanceof Error ? err.stack : String(err) });
        process.exit(1);
      },
    );
  };
  process.on("SIGINT", () => stop("SIGINT"));
  process.on("SIGTERM", () => stop("SIGTERM"));
}

main().catch((err: unknown) => {
  process.stderr.write(`kandev failed to start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
