import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { defineConfig, devices } from "@playwright/test";

// The e2e suite runs against the BUILT board (`npx turbo run build` first), started as real
// processes on free ports with fresh databases. Playwright evaluates this file in its runner and
// again in every worker; ports and data dirs are chosen once and handed down through the
// environment, which workers inherit.
//
// Two boards run for the whole suite: the default one (the e2e profile: features.acpElicitation
// off, as in production) and one started with KANDEV_FEATURES_ACP_ELICITATION=true for the
// elicitation specs (the flag is restart-required, so it is chosen per board, never toggled).
// A spec that needs other settings (AC-64's short answer deadline) starts its own (e2e/board.ts).

const repoRoot = __dirname;
/** Debian's headless Chromium and its container flags (the board benchmark uses the same flags). */
const chromium = JSON.parse(fs.readFileSync(path.join(repoRoot, "e2e/chromium.json"), "utf8")) as { executablePath: string; args: string[] };
if (!fs.existsSync(chromium.executablePath)) {
  throw new Error(
    `${chromium.executablePath} is missing: the e2e suite runs in Debian's headless Chromium (apt-get install -y chromium-headless-shell)`,
  );
}

/** A free TCP port, found synchronously (this config cannot await). */
function freePort(): string {
  const script = "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{process.stdout.write(String(s.address().port));s.close();});";
  return execFileSync(process.execPath, ["-e", script], { encoding: "utf8" }).trim();
}

if (!process.env.KANDEV_E2E_PORT) process.env.KANDEV_E2E_PORT = freePort();
if (!process.env.KANDEV_E2E_ELICIT_PORT) process.env.KANDEV_E2E_ELICIT_PORT = freePort();
if (!process.env.KANDEV_E2E_DATA_DIR) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "kandev-e2e-"));
  process.env.KANDEV_E2E_DATA_DIR = dir;
  // Only the process that made the dir removes it, after the web server has been stopped.
  process.on("exit", () => fs.rmSync(dir, { recursive: true, force: true }));
}

const port = process.env.KANDEV_E2E_PORT;
const baseURL = `http://127.0.0.1:${port}`;
const elicitPort = process.env.KANDEV_E2E_ELICIT_PORT;
process.env.KANDEV_E2E_ELICIT_URL = `http://127.0.0.1:${elicitPort}`;

/** One board process; `env` adds to the shared settings. */
function board(boardPort: string, name: string, env: Record<string, string> = {}) {
  return {
    command: "node apps/backend/dist/main.js",
    cwd: repoRoot,
    url: `http://127.0.0.1:${boardPort}/api/v1/health`,
    env: {
      KANDEV_HOST: "127.0.0.1",
      KANDEV_PORT: boardPort,
      KANDEV_DB_PATH: path.join(process.env.KANDEV_E2E_DATA_DIR ?? "", name, "kandev.db"),
      KANDEV_PROFILE: "e2e",
      NEXT_TELEMETRY_DISABLED: "1",
      ...env,
    },
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: "pipe" as const,
    stderr: "pipe" as const,
    // Playwright starts the command in its own process group and signals the whole group, so
    // agentctl and agent children go down with the board.
    gracefulShutdown: { signal: "SIGTERM" as const, timeout: 10_000 },
  };
}

export default defineConfig({
  testDir: "e2e",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  forbidOnly: !!process.env.CI,
  reporter: "list",
  timeout: 60_000,
  expect: { timeout: 15_000 },
  outputDir: path.join("test-results", "e2e"),
  use: {
    baseURL,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    actionTimeout: 10_000,
    navigationTimeout: 20_000,
    contextOptions: { reducedMotion: "reduce" },
  },
  projects: [
    {
      name: "chromium",
      use: {
        ...devices["Desktop Chrome"],
        launchOptions: {
          executablePath: chromium.executablePath,
          args: chromium.args,
        },
      },
    },
  ],
  webServer: [board(port, "default"), board(elicitPort, "elicitation", { KANDEV_FEATURES_ACP_ELICITATION: "true" })],
});
