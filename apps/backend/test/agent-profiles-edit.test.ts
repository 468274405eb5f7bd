// PATCH and DELETE /api/v1/agent-profiles/:id, the checks a saved profile reports, and a start in a
// missing working directory, against a real server, agentctl and mock agent.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import Database from "better-sqlite3";
import { SECRET_MASK, type AgentProfile, type Message } from "@kandev/protocol";
import { api, createTask, getMessages, repoRoot, startTestServer, tempDir, waitForTaskState } from "./helpers.js";

type Server = Awaited<ReturnType<typeof startTestServer>>;
interface ErrorBody {
  error: { code: string; message: string; details?: { reason?: string; task_ids?: string[] } };
}
const mockCli = path.join(repoRoot, "packages/mock-agent/dist/cli.js");

describe("agent profiles are edited and removed", () => {
  let server: Server;
  let base: string;
  const dir = tempDir();
  before(async () => {
    server = await startTestServer({ dir });
    base = server.url;
  });
  after(async () => {
    await server?.close();
  });

  /** What the database holds (the API never shows it). */
  function storedEnv(id: string): unknown {
    const db = new Database(server.dbPath, { readonly: true });
    try {
      const row = db.prepare("select env from agent_profiles where id = ?").get(id) as { env: string | null };
      return row.env === null ? null : JSON.parse(row.env);
    } finally {
      db.close();
    }
  }

  async function add(body: Record<string, unknown>): Promise<AgentProfile> {
    const res = await api<AgentProfile>(base, "POST", "/api/v1/agent-profiles", { name: "Agent", command: [process.execPath, mockCli], ...body });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body;
  }

  test("PATCH changes name, command and cwd; env is merged key by key (a value left out is kept, null removes)", async () => {
    const p = await add({ id: "edit-me", env: { API_KEY: "secret-1", OTHER: "x" } });
    assert.deepEqual(p.problems, []);
    const res = await api<AgentProfile>(base, "PATCH", "/api/v1/agent-profiles/edit-me", {
      name: "Renamed",
      command: [process.execPath, mockCli, "--flag"],
      cwd: dir,
      env: { OTHER: null, NEW_KEY: "v" },
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.name, "Renamed");
    assert.deepEqual(res.body.command, [process.execPath, mockCli, "--flag"]);
    assert.equal(res.body.cwd, dir);
    // Write-only: the answer shows names with masked values; the stored values are the merge.
    assert.deepEqual(res.body.env, { API_KEY: SECRET_MASK, NEW_KEY: SECRET_MASK });
    assert.deepEqual(storedEnv("edit-me"), { API_KEY: "secret-1", NEW_KEY: "v" });
    const cleared = await api<AgentProfile>(base, "PATCH", "/api/v1/agent-profiles/edit-me", { cwd: null });
    assert.equal(cleared.body.cwd, undefined);
    const listed = (await api<AgentProfile[]>(base, "GET", "/api/v1/agent-profiles")).body.find((x) => x.id === "edit-me");
    assert.equal(listed?.name, "Renamed");
  });

  test("env values are masked in every answer; sending the mask back keeps the value, a mask for a new name is refused", async () => {
    const created = await add({ id: "masked", env: { ANTHROPIC_API_KEY: "sk-ant-real-value", DEBUG: "1" } });
    assert.deepEqual(created.env, { ANTHROPIC_API_KEY: "********", DEBUG: "********" });
    const listed = await api(base, "GET", "/api/v1/agent-profiles");
    assert.doesNotMatch(JSON.stringify(listed.body), /sk-ant-real-value/);
    // A form sends back what it read, plus one change: only the change lands.
    const res = await api<AgentProfile>(base, "PATCH", "/api/v1/agent-profiles/masked", { env: { ANTHROPIC_API_KEY: SECRET_MASK, DEBUG: "2" } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.env, { ANTHROPIC_API_KEY: SECRET_MASK, DEBUG: SECRET_MASK });
    assert.deepEqual(storedEnv("masked"), { ANTHROPIC_API_KEY: "sk-ant-real-value", DEBUG: "2" });
    const unknown = await api<ErrorBody>(base, "PATCH", "/api/v1/agent-profiles/masked", { env: { NEW_KEY: SECRET_MASK } });
    assert.equal(unknown.status, 400);
    assert.equal(unknown.body.error.code, "VALIDATION_ERROR");
    assert.deepEqual(storedEnv("masked"), { ANTHROPIC_API_KEY: "sk-ant-real-value", DEBUG: "2" });
  });

  test("a bad PATCH is 400 on its field and changes nothing; an unknown profile is 404", async () => {
    await add({ id: "keep-me" });
    const blank = await api<ErrorBody>(base, "PATCH", "/api/v1/agent-profiles/keep-me", { name: "  ", command: [] });
    assert.equal(blank.status, 400);
    assert.equal(blank.body.error.code, "VALIDATION_ERROR");
    const typo = await api<ErrorBody>(base, "PATCH", "/api/v1/agent-profiles/keep-me", { nmae: "x" });
    assert.equal(typo.status, 400);
    assert.equal((await api(base, "PATCH", "/api/v1/agent-profiles/nobody", { name: "x" })).status, 404);
    assert.equal((await api(base, "DELETE", "/api/v1/agent-profiles/nobody")).status, 404);
  });

  test("a saved profile says what keeps its agent from starting: a command not found, a working directory missing or a file", async () => {
    const file = path.join(dir, "a-file.txt");
    fs.writeFileSync(file, "x");
    const p = await add({ id: "broken", command: ["surely-not-installed-agent"], cwd: path.join(dir, "missing") });
    assert.deepEqual(
      p.problems.map((x) => [x.path, x.code]),
      [
        ["cwd", "cwd_missing"],
        ["command", "command_not_found"],
      ],
    );
    assert.match(p.problems[0]!.message, /does not exist/);
    const patched = await api<AgentProfile>(base, "PATCH", "/api/v1/agent-profiles/broken", { cwd: file, command: [process.execPath] });
    assert.deepEqual(
      patched.body.problems.map((x) => x.code),
      ["cwd_not_directory"],
    );
  });

  test("a start in a missing working directory fails saying so, not that the command was not found", async () => {
    const gone = path.join(dir, "was-here");
    fs.mkdirSync(gone);
    await add({ id: "cwd-gone", cwd: gone });
    fs.rmdirSync(gone);
    const { task, session } = await createTask(base, "/e2e:echo hi", { agent_profile_id: "cwd-gone" });
    await waitForTaskState(base, task.id, "FAILED");
    const errors = (await getMessages(base, session.id)).filter((m: Message) => m.type === "error");
    assert.match(errors[0]?.content ?? "", /working directory ".*was-here" does not exist/);
    assert.doesNotMatch(errors[0]?.content ?? "", /was not found/);
  });

  test("built-in profiles cannot be edited or removed (409)", async () => {
    const edit = await api<ErrorBody>(base, "PATCH", "/api/v1/agent-profiles/mock", { name: "x" });
    assert.equal(edit.status, 409);
    assert.equal(edit.body.error.details?.reason, "builtin");
    const del = await api<ErrorBody>(base, "DELETE", "/api/v1/agent-profiles/mock");
    assert.equal(del.status, 409);
    assert.match(del.body.error.message, /built in/);
  });

  test("DELETE is 409 while a live session uses the profile, 204 once none does", async () => {
    await add({ id: "in-use" });
    const { task } = await createTask(base, "/e2e:echo hi", { agent_profile_id: "in-use" });
    await waitForTaskState(base, task.id, "REVIEW");
    const refused = await api<ErrorBody>(base, "DELETE", "/api/v1/agent-profiles/in-use");
    assert.equal(refused.status, 409);
    assert.equal(refused.body.error.details?.reason, "in_use");
    assert.deepEqual(refused.body.error.details?.task_ids, [task.id]);
    assert.equal((await api(base, "PATCH", `/api/v1/tasks/${task.id}`, { state: "COMPLETED" })).status, 200);
    assert.equal((await api(base, "DELETE", "/api/v1/agent-profiles/in-use")).status, 204);
    assert.ok(!(await api<AgentProfile[]>(base, "GET", "/api/v1/agent-profiles")).body.some((x) => x.id === "in-use"));
  });
});
