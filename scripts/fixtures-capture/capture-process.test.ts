// `npm run fixtures:capture` as a real process against fake bridge packages made with `npm pack`:
// the npm install step runs for real, offline. npm is pointed at a local registry that answers 404
// to everything, so a capture that needed the network would fail here (and the 404 case is tested).
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const REPO = fileURLToPath(new URL("../..", import.meta.url));
const MAIN = join(REPO, "scripts", "fixtures-capture", "main.ts");
const CHECKED_IN = join(REPO, "packages", "agentctl", "test", "fixtures", "bridge-0.101.0");
const PACKAGE = "@agentclientprotocol/claude-agent-acp";
const RUN_TIMEOUT_MS = 90_000;

/** Builders with known, simple shapes: what they return is computed from their arguments alone. */
const FAKE_BUILDERS = `
export const REFUSAL_FALLBACK_DIALOG_KIND = "refusal_fallback_prompt";
export function extractAskUserQuestions(input) {
  const qs = Array.isArray(input.questions) ? input.questions.filter((q) => q && typeof q.question === "string" && Array.isArray(q.options) && q.options.length > 0) : [];
  return qs.length > 0 ? qs : null;
}
export function askUserQuestionsToCreateRequest(questions, sessionId, toolCallId) {
  return { fake: "ask", sessionId, toolCallId: toolCallId ?? null, keys: questions.map((_, i) => "question_" + i) };
}
export function applyAskElicitationResponse(response, toolInput, questions) {
  return { fake: "apply", action: response.action, questions: questions.length };
}
export function mcpElicitationToCreateRequest(request, sessionId) {
  return request.mode === "url" && !request.url ? null : { fake: "mcp", sessionId, message: request.message };
}
export function createElicitationResponseToElicitResult(response) {
  return { action: response.action };
}
export function extractRefusalFallbackPrompt(payload) {
  return typeof payload.originalModel === "string" ? { from: payload.originalModel, to: payload.fallbackModel } : null;
}
export function refusalFallbackToCreateRequest(prompt, sessionId) {
  return { fake: "refusal", sessionId, message: prompt.from + " -> " + prompt.to };
}
export function refusalFallbackResultFromResponse(response) {
  return response.action === "accept" ? "retry_fallback" : "cancelled";
}
`;

let tmp = "";
let fixtures = "";
let childTmp = "";
let registry: Server;
const registryRequests: string[] = [];
let env: NodeJS.ProcessEnv = {};
const tarballs = new Map<string, string>();

function fakePackage(version: string, elicitation: string | null, name = PACKAGE): string {
  const dir = join(tmp, "src", `${name.replace(/[@/]/g, "_")}-${version}`);
  mkdirSync(join(dir, "dist"), { recursive: true });
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name, version, type: "module", main: "dist/index.js" }));
  writeFileSync(join(dir, "dist", "index.js"), "export {};\n");
  if (elicitation !== null) writeFileSync(join(dir, "dist", "elicitation.js"), elicitation);
  return dir;
}

function pack(dir: string): string {
  const r = spawnSync("npm", ["pack", dir, "--json", "--pack-destination", join(tmp, "packs")], { env, encoding: "utf8", timeout: RUN_TIMEOUT_MS });
  assert.equal(r.status, 0, r.stderr);
  const [info] = JSON.parse(r.stdout) as Array<{ filename: string }>;
  assert.ok(info);
  return join(tmp, "packs", info.filename);
}

interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

function capture(...args: string[]): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", MAIN, "--fixtures", fixtures, ...args], { cwd: REPO, env });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (c: string) => (stdout += c));
    child.stderr.setEncoding("utf8").on("data", (c: string) => (stderr += c));
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`capture ${args.join(" ")} did not finish in ${RUN_TIMEOUT_MS} ms\n${stdout}\n${stderr}`));
    }, RUN_TIMEOUT_MS);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      // No temporary install folder may outlive a run, whatever its outcome.
      const left = readdirSync(childTmp).filter((n) => n.startsWith("kandev-bridge-"));
      if (left.length > 0) reject(new Error(`temporary folders left behind: ${left.join(", ")}`));
      else resolve({ code, stdout, stderr });
    });
  });
}

const read = (...p: string[]) => readFileSync(join(...p), "utf8");
const json = (...p: string[]) => JSON.parse(read(...p)) as Record<string, unknown>;
const serialized = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

before(async () => {
  tmp = mkdtempSync(join(tmpdir(), "kandev-"));
  fixtures = join(tmp, "fixtures");
  childTmp = join(tmp, "child-tmp");
  mkdirSync(childTmp);
  mkdirSync(join(tmp, "packs"));
  cpSync(CHECKED_IN, join(fixtures, "bridge-0.101.0"), { recursive: true });
  // The checked-in copies may be read-only; the scratch copy must be removable by `after`.
  chmodSync(join(fixtures, "bridge-0.101.0"), 0o755);
  for (const name of readdirSync(join(fixtures, "bridge-0.101.0"))) chmodSync(join(fixtures, "bridge-0.101.0", name), 0o644);
  registry = createServer((req, res) => {
    registryRequests.push(req.url ?? "");
    res.writeHead(404, { "content-type": "application/json" });
    res.end('{"error":"Not found"}');
  });
  await new Promise<void>((resolve) => registry.listen(0, "127.0.0.1", resolve));
  env = {
    ...process.env,
    npm_config_registry: `http://127.0.0.1:${(registry.address() as AddressInfo).port}/`,
    npm_config_cache: join(tmp, "npm-cache"),
    npm_config_update_notifier: "false",
    npm_config_fetch_retries: "0",
    TMPDIR: childTmp,
  };
  tarballs.set("0.200.0", pack(fakePackage("0.200.0", FAKE_BUILDERS)));
  tarballs.set("0.201.0", pack(fakePackage("0.201.0", FAKE_BUILDERS.replace("function applyAskElicitationResponse", "function applyAskResponse"))));
  tarballs.set(
    "0.202.0",
    pack(fakePackage("0.202.0", FAKE_BUILDERS.replace('return { fake: "refusal"', 'throw new Error("boom"); return { fake: "refusal"'))),
  );
  tarballs.set("0.203.0", pack(fakePackage("0.203.0", null)));
  tarballs.set("other", pack(fakePackage("1.0.0", FAKE_BUILDERS, "not-the-bridge")));
});

after(async () => {
  await new Promise<void>((resolve) => registry.close(() => resolve()));
  rmSync(tmp, { recursive: true, force: true });
});

describe("fixtures:capture as a process, against npm-packed fake bridges", () => {
  test("--dry-run installs, builds and reports changes against the newest checked-in version, and writes nothing", async () => {
    const r = await capture("--from", tarballs.get("0.200.0")!, "--dry-run");
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^fixtures:capture @agentclientprotocol\/claude-agent-acp@0\.200\.0 \(installed from /);
    assert.match(r.stdout, /compared with bridge-0\.101\.0 \(the newest checked-in version; this version is not checked in\)/);
    assert.match(r.stdout, / {2}changed {4}ask-4-mixed\.json\n {6}- createRequest\.mode: "form"\n/);
    assert.match(r.stdout, / {6}\+ createRequest\.fake: "ask"/);
    assert.match(r.stdout, / {2}changed {4}refusal-fallback\.json\n/);
    assert.match(r.stdout, / {2}copied {5}wire-ask-user-question\.json from the checked-in bridge-0\.101\.0/);
    // The fake's extractAskUserQuestions filters like the real one, so that file alone is unchanged.
    assert.match(r.stdout, / {2}unchanged {2}extract-gatekeeping\.json\n/);
    assert.match(r.stdout, /9 generated: 1 unchanged, 8 changed, 0 new, 0 failed\.\nNote: 3 wire capture\(s\) would be copied forward/);
    assert.match(r.stdout, /Dry run: nothing written\.\n$/);
    assert.ok(!existsSync(join(fixtures, "bridge-0.200.0")));
    assert.deepEqual(registryRequests, [], "the install of a tarball without dependencies never asks the registry");
  });

  test("a capture writes every generated file in the fixture layout and copies the wire captures forward", async () => {
    const r = await capture("--from", tarballs.get("0.200.0")!);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /Wrote 12 file\(s\) to .*bridge-0\.200\.0\.\n$/);
    const out = join(fixtures, "bridge-0.200.0");
    assert.deepEqual(readdirSync(out).sort(), readdirSync(CHECKED_IN).sort());
    for (const wire of ["wire-ask-user-question.json", "wire-mcp-passthrough.json", "wire-coding-session.json"])
      assert.equal(read(out, wire), read(CHECKED_IN, wire));

    const input = json(CHECKED_IN, "ask-4-mixed.json").input as { questions: unknown[] };
    assert.equal(
      read(out, "ask-4-mixed.json"),
      serialized({
        input,
        extracted: input.questions,
        createRequest: { fake: "ask", sessionId: "sess-1", toolCallId: "tool-44", keys: ["question_0", "question_1", "question_2", "question_3"] },
      }),
    );
    const noToolCall = json(out, "ask-1-no-toolcallid.json").createRequest;
    assert.deepEqual(noToolCall, { fake: "ask", sessionId: "sess-1", toolCallId: null, keys: ["question_0"] });

    const refusal = json(CHECKED_IN, "refusal-fallback.json") as { payload: unknown; results: Record<string, { response: { action: string } }> };
    assert.equal(
      read(out, "refusal-fallback.json"),
      serialized({
        REFUSAL_FALLBACK_DIALOG_KIND: "refusal_fallback_prompt",
        payload: refusal.payload,
        extracted: { from: "Fable", to: "Opus" },
        createRequest: { fake: "refusal", sessionId: "sess-1", message: "Fable -> Opus" },
        noCategoryNoGuidance: { fake: "refusal", sessionId: "sess-1", message: "Fable -> Opus" },
        badPayload: null,
        results: Object.fromEntries(
          Object.entries(refusal.results).map(([k, { response }]) => [
            k,
            { response, result: response.action === "accept" ? "retry_fallback" : "cancelled" },
          ]),
        ),
      }),
    );
    const apply = json(out, "apply-responses-two-questions.json") as { results: Record<string, { result: unknown }> };
    assert.deepEqual(apply.results["unknown-action"]?.result, { fake: "apply", action: "_vendor_defer", questions: 2 });
    const mcp = json(out, "mcp-passthrough.json");
    assert.equal(mcp.urlWithoutUrl, null);
    assert.deepEqual(mcp.apiKeyForm, { fake: "mcp", sessionId: "sess-1", message: "Enter your API key" });
    const extract = json(out, "extract-gatekeeping.json");
    assert.deepEqual([extract.allBad, extract.nonArray, extract.missing], [null, null, null]);
  });

  test("captured again, the new version is the newest: inputs round-trip through it and nothing changes", async () => {
    const before = read(fixtures, "bridge-0.200.0", "apply-responses-four-questions.json");
    const r = await capture("--bridge", "0.200.0", "--from", tarballs.get("0.200.0")!);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /inputs from {3}bridge-0\.200\.0\n {2}compared with bridge-0\.200\.0 \(checked in, same version\)/);
    assert.match(r.stdout, /9 generated: 9 unchanged, 0 changed, 0 new, 0 failed\.\n/);
    assert.match(r.stdout, / {2}kept {7}wire-mcp-passthrough\.json/);
    assert.match(r.stdout, /Nothing to write: .*bridge-0\.200\.0 is up to date\.\n$/);
    assert.equal(read(fixtures, "bridge-0.200.0", "apply-responses-four-questions.json"), before);
  });

  test("--out writes elsewhere; --from also takes a package folder", async () => {
    const out = join(tmp, "out");
    const r = await capture("--from", join(tmp, "src", `${PACKAGE.replace(/[@/]/g, "_")}-0.200.0`), "--out", out);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /9 unchanged/);
    assert.equal(readdirSync(join(out, "bridge-0.200.0")).length, 12);
    assert.equal(read(out, "bridge-0.200.0", "ask-4-mixed.json"), read(fixtures, "bridge-0.200.0", "ask-4-mixed.json"));
  });

  test("a version without a builder: the files that need it fail by name, nothing is written, exit 1", async () => {
    const r = await capture("--from", tarballs.get("0.201.0")!);
    assert.equal(r.code, 1);
    assert.match(
      r.stdout,
      / {2}FAILED {5}apply-responses-two-questions\.json: dist\/elicitation\.js has no export applyAskElicitationResponse \(it exports: .*applyAskResponse/,
    );
    // Compared with 0.200.0 (now the newest checked-in version), whose builders these are.
    assert.match(r.stdout, / {2}unchanged {2}ask-4-mixed\.json/, "the files that could be built are still reported");
    assert.match(r.stdout, /2 failed\.\nNote: .*\nCapture incomplete: nothing written\.\n$/);
    assert.ok(!existsSync(join(fixtures, "bridge-0.201.0")));
  });

  test("a builder that throws fails its file with the builder's message; nothing is written, exit 1", async () => {
    const r = await capture("--from", tarballs.get("0.202.0")!);
    assert.equal(r.code, 1);
    assert.match(r.stdout, / {2}FAILED {5}refusal-fallback\.json: refusalFallbackToCreateRequest threw: boom/);
    assert.match(r.stdout, /Capture incomplete: nothing written\.\n$/);
    assert.ok(!existsSync(join(fixtures, "bridge-0.202.0")));
  });

  test("a version without dist/elicitation.js is a clear error, exit 1", async () => {
    const r = await capture("--from", tarballs.get("0.203.0")!);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /fixtures:capture: @agentclientprotocol\/claude-agent-acp@0\.203\.0 has no dist\/elicitation\.js/);
    assert.equal(r.stdout, "");
  });

  test("an unknown version in the registry fails with npm's own 404 message, exit 1", async () => {
    const r = await capture("--bridge", "9.9.9");
    assert.equal(r.code, 1);
    assert.match(
      r.stderr,
      /fixtures:capture: npm install @agentclientprotocol\/claude-agent-acp@9\.9\.9 failed \(exit 1\):\n {2}npm error code E404\n {2}npm error 404 /,
    );
    assert.ok(
      registryRequests.some((u) => u.includes("claude-agent-acp")),
      registryRequests.join(", "),
    );
  });

  test("--from that is not the bridge, --bridge that does not match, a missing --from path: clear errors, exit 1", async () => {
    const other = await capture("--from", tarballs.get("other")!);
    assert.equal(other.code, 1);
    assert.match(other.stderr, /is not @agentclientprotocol\/claude-agent-acp \(npm installed: not-the-bridge\)/);
    const mismatch = await capture("--bridge", "0.1.0", "--from", tarballs.get("0.200.0")!);
    assert.equal(mismatch.code, 1);
    assert.match(mismatch.stderr, /--bridge 0\.1\.0 but .* is @agentclientprotocol\/claude-agent-acp@0\.200\.0/);
    const missing = await capture("--from", join(tmp, "nope.tgz"));
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /--from .*nope\.tgz: no such file or directory/);
  });

  test("a usage error exits 2 with the usage text", async () => {
    const r = await capture("--bridge", "0.1.0", "--verbose");
    assert.equal(r.code, 2);
    assert.match(r.stderr, /fixtures:capture: unknown argument: --verbose\n\nusage: npm run fixtures:capture/);
  });
});
