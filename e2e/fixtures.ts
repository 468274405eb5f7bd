import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { test as base, expect, type APIRequestContext } from "@playwright/test";
import { AgentProfileSchema } from "@kandev/protocol";
import { agentText, elicitations, prompts, readFrames, type Exchange } from "./agent-log";

const mockAgentCli = path.resolve(__dirname, "..", "packages", "mock-agent", "dist", "cli.js");
let profiles = 0;

/** The mock agent behind one test, recording its frames to a file of its own. */
export interface LoggedAgent {
  /** Agent profile id to create tasks with. */
  profileId: string;
  logFile: string;
  /** elicitation/create requests and their answers, as the agent saw them. */
  elicitations(): Exchange[];
  prompts(): ReturnType<typeof prompts>;
  /** Everything the agent said. */
  text(): string;
  /** Waits for the n-th (1-based) elicitation to be answered and returns the answer. */
  answer(n?: number): Promise<unknown>;
}

/** Registers a profile that runs the mock agent with MOCK_AGENT_LOG set (POST /api/v1/agent-profiles). */
export async function loggedAgent(request: APIRequestContext, baseURL: string, dir: string): Promise<LoggedAgent> {
  profiles += 1;
  const logFile = path.join(dir, `agent-${profiles}.jsonl`);
  const res = await request.post(`${baseURL}/api/v1/agent-profiles`, {
    data: { name: `Mock agent (logged ${profiles})`, command: [process.execPath, mockAgentCli], env: { MOCK_AGENT_LOG: logFile } },
  });
  expect(res.status(), await res.text()).toBe(201);
  const profile = AgentProfileSchema.parse(await res.json());
  const agent: LoggedAgent = {
    profileId: profile.id,
    logFile,
    elicitations: () => elicitations(readFrames(logFile)),
    prompts: () => prompts(readFrames(logFile)),
    text: () => agentText(readFrames(logFile)),
    async answer(n = 1) {
      await expect
        .poll(() => agent.elicitations()[n - 1]?.answeredAt !== undefined, { message: `elicitation #${n} answered`, intervals: [50, 100, 200] })
        .toBe(true);
      const ex = agent.elicitations()[n - 1];
      return ex?.response ?? ex?.error;
    },
  };
  return agent;
}

/**
 * Every spec's `page` fails its test on an uncaught page error or a console error (hydration
 * mismatches, React warnings). Failed HTTP responses are exempt: specs provoke 4xx on purpose and
 * Chromium logs each one as a console error. Every test also gets `agent`: a logged mock agent on
 * the test's board.
 */
// biome-ignore lint/suspicious/noConfusingVoidType: Playwright types a fixture that provides no value as void, so its use() takes no argument.
export const test = base.extend<{ failOnPageErrors: void; agent: LoggedAgent; tempDir: string }>({
  failOnPageErrors: [
    async ({ context }, use) => {
      const problems: string[] = [];
      const watch = (page: import("@playwright/test").Page) => {
        page.on("pageerror", (err) => problems.push(`${page.url()}: uncaught ${err.message}`));
        page.on("console", (msg) => {
          if (msg.type() === "error" && !msg.text().startsWith("Failed to load resource")) {
            problems.push(`${page.url()}: console.error ${msg.text()}`);
          }
        });
        // A dialog would mean agent text ran as script (or a forgotten alert); either is a bug.
        page.on("dialog", (dialog) => {
          problems.push(`${page.url()}: unexpected ${dialog.type()} dialog "${dialog.message()}"`);
          void dialog.dismiss();
        });
      };
      context.pages().forEach(watch);
      context.on("page", watch);
      await use();
      expect(problems, problems.join("\n")).toEqual([]);
    },
    { auto: true },
  ],
  // biome-ignore lint/correctness/noEmptyPattern: Playwright requires the first argument to be an object pattern (it reads the fixtures a fixture uses from it); this one uses none.
  tempDir: async ({}, use) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "kandev-e2e-"));
    await use(dir);
    fs.rmSync(dir, { recursive: true, force: true });
  },
  agent: async ({ request, baseURL, tempDir }, use) => {
    await use(await loggedAgent(request, baseURL ?? "", tempDir));
  },
});

export { expect };
