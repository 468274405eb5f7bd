// npm run acp:probe as a real process against the built mock agent (build packages/mock-agent and
// packages/agentctl first: the probe imports agentctl's buildClientCapabilities from its dist).
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const SCRIPT = fileURLToPath(new URL("./acp-probe.ts", import.meta.url));
const MOCK = `"${process.execPath}" "${fileURLToPath(new URL("../packages/mock-agent/dist/cli.js", import.meta.url))}"`;

interface Done {
  code: number | null;
  stdout: string;
  stderr: string;
}

function probe(args: string[], timeoutMs = 60_000): Promise<Done> {
  const child = spawn(process.execPath, ["--import", "tsx", SCRIPT, ...args], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
  child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`acp-probe did not finish within ${timeoutMs} ms; stderr: ${stderr}`));
    }, timeoutMs);
    child.once("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

type JsonRun = {
  elicitation: string;
  clientCapabilities: Record<string, unknown>;
  methodSequence: string[];
  elicitations: Array<{ params: Record<string, unknown>; response: unknown }>;
  toolCalls: Array<{ title: string; statuses: string[] }>;
  agentText: string;
  stopReason: string | null;
  error: unknown;
};
type JsonDoc = { runs: JsonRun[]; comparison?: { identicalSequences: boolean } };

describe("acp-probe (real process, mock agent)", () => {
  test("/e2e:plain with --elicitation both: identical sequences, only the capabilities differ", async () => {
    const r = await probe(["--agent", MOCK, "--prompt", "/e2e:plain", "--elicitation", "both", "--json"]);
    assert.equal(r.code, 0, r.stderr);
    const doc = JSON.parse(r.stdout) as JsonDoc;
    const [off, on] = doc.runs as [JsonRun, JsonRun];
    assert.deepEqual([off.elicitation, on.elicitation], ["off", "on"]);
    assert.deepEqual(off.methodSequence, on.methodSequence);
    assert.deepEqual(on.methodSequence, [
      "-> initialize",
      "<- initialize (result)",
      "-> session/new",
      "<- session/new (result)",
      "-> session/prompt",
      "<- session/update (notification)",
      "<- session/prompt (result)",
    ]);
    assert.equal(doc.comparison?.identicalSequences, true);
    assert.deepEqual(off.clientCapabilities, { _meta: { terminal_output: true } });
    assert.deepEqual(on.clientCapabilities, { _meta: { terminal_output: true }, elicitation: { form: {} } });
    assert.deepEqual([off.stopReason, on.stopReason], ["end_turn", "end_turn"]);
  });

  test("text report of --elicitation both prints the side-by-side diff", async () => {
    const r = await probe(["--agent", MOCK, "--prompt", "/e2e:tool-call Read the plan", "--elicitation", "both"]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /== method sequences: elicitation off \| on ==/);
    assert.match(r.stdout, /^= -> session\/prompt +\| -> session\/prompt$/m);
    assert.match(r.stdout, /sequences: identical/);
    assert.match(
      r.stdout,
      /clientCapabilities differ:\n {2}off: \{"_meta":\{"terminal_output":true\}\}\n {2}on: {2}\{"_meta":\{"terminal_output":true\},"elicitation":\{"form":\{\}\}\}/,
    );
    assert.match(r.stdout, /mock-tool-\S+ "Read the plan" kind=read status: pending -> completed/);
    assert.match(r.stdout, /stop reason: end_turn/);
  });

  test("an elicit scenario with elicitation on: the elicitation/create frame in full, declined by default", async () => {
    const r = await probe(["--agent", MOCK, "--prompt", "/e2e:elicit-ask", "--elicitation", "on", "--json"]);
    assert.equal(r.code, 0, r.stderr);
    const run = (JSON.parse(r.stdout) as JsonDoc).runs[0]!;
    assert.equal(run.elicitations.length, 1);
    const params = run.elicitations[0]!.params;
    assert.equal(params.mode, "form");
    assert.equal(params.toolCallId, "toolu_fake_1");
    assert.ok(Object.keys((params.requestedSchema as { properties: object }).properties).includes("question_0_custom"));
    assert.deepEqual(run.elicitations[0]!.response, { action: "decline" });
    const seq = run.methodSequence;
    assert.ok(seq.indexOf("<- elicitation/create") > seq.indexOf("-> session/prompt"));
    assert.ok(seq.indexOf("-> elicitation/create (result)") > seq.indexOf("<- elicitation/create"));
    assert.equal(seq.filter((l) => l === "-> session/prompt").length, 1, "one prompt for the whole exchange");
    assert.equal(run.agentText, 'elicitation response: {"action":"decline"}\n');
    assert.equal(run.stopReason, "end_turn");
  });

  test("--answer accepts with that content; the text report shows the frame and the answer", async () => {
    const r = await probe(["--agent", MOCK, "--prompt", "/e2e:elicit-ask", "--answer", '{"question_0":"Red"}']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /elicitation\/create frames: 1\n {2}#1 params:\n {4}\{\n {6}"mode": "form"/);
    assert.match(r.stdout, /#1 answered: \{"action":"accept","content":\{"question_0":"Red"\}\}/);
    assert.match(r.stdout, /elicitation response: \{"action":"accept","content":\{"question_0":"Red"\}\}/);
  });

  test("a missing command -> exit 1 with a clear message", async () => {
    const r = await probe(["--agent", "kandev-no-such-agent-cmd --acp", "--elicitation", "both"]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /cannot start agent command "kandev-no-such-agent-cmd": spawn kandev-no-such-agent-cmd ENOENT/);
    assert.equal((r.stdout.match(/== ACP probe/g) ?? []).length, 1, "no second attempt after a start failure");
  });

  test("a command that exits at once -> exit 1 naming its exit code and stderr tail", async () => {
    const agent = `"${process.execPath}" -e "console.error('boom: no API key'); process.exit(3)"`;
    const r = await probe(["--agent", agent]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /the agent exited with code 3 during initialize/);
    assert.match(r.stderr, /boom: no API key/);
  });

  test("an agent that never answers -> exit 1 after --timeout", async () => {
    const r = await probe(["--agent", MOCK, "--prompt", "/e2e:hang", "--timeout", "3s"]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /timed out after 3000 ms during (initialize|session\/new|session\/prompt)/);
  });

  test("usage errors -> exit 2 with the usage text", async () => {
    const missing = await probe(["--prompt", "x"]);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /--agent is required/);
    assert.match(missing.stderr, /usage: npm run acp:probe/);
    const bad = await probe(["--agent", MOCK, "--elicitation", "maybe"]);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--elicitation must be on, off or both/);
  });
});
