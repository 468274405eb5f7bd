import path from "node:path";
import { expect, type APIRequestContext } from "@playwright/test";
import { AgentProfileSchema } from "@kandev/protocol";

const mockAgentCli = path.resolve(__dirname, "..", "packages", "mock-agent", "dist", "cli.js");
let made = 0;

/**
 * A profile running the mock agent with MOCK_AGENT_SESSION_STATE=1: its sessions have modes
 * (Ask, Plan, Accept edits, and one it refuses), a `model` option, and slash commands.
 */
export async function statefulProfile(request: APIRequestContext): Promise<string> {
  made += 1;
  const res = await request.post("/api/v1/agent-profiles", {
    data: { name: `Stateful mock ${made}`, command: [process.execPath, mockAgentCli], env: { MOCK_AGENT_SESSION_STATE: "1" } },
  });
  expect(res.status(), await res.text()).toBe(201);
  return AgentProfileSchema.parse(await res.json()).id;
}
