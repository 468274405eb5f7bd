import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { FileCheck } from "./executable.js";
import { profileProblems } from "./profile-check.js";

const only =
  (...files: string[]): FileCheck =>
  (f) =>
    files.includes(f) ? "ok" : "missing";

describe("profileProblems", () => {
  test("a command found on PATH in an existing folder has no problems", () => {
    const problems = profileProblems(
      { command: ["agent"], env: null, cwd: "/work" },
      { pathEnv: "/bin", boardCwd: "/", check: only("/bin/agent"), checkDir: () => "ok" },
    );
    assert.deepEqual(problems, []);
  });

  test("a missing command and a missing folder are both named, each on its field", () => {
    const problems = profileProblems(
      { command: ["nodee"], env: null, cwd: "/nowhere" },
      { pathEnv: "/bin", boardCwd: "/", check: only(), checkDir: () => "missing" },
    );
    assert.deepEqual(
      problems.map((p) => [p.path, p.code]),
      [
        ["cwd", "cwd_missing"],
        ["command", "command_not_found"],
      ],
    );
    assert.match(problems[0]!.message, /"\/nowhere" does not exist/);
    assert.match(problems[1]!.message, /"nodee" was not found on PATH/);
  });

  test("a cwd that is a file, and a command without execute permission", () => {
    const problems = profileProblems(
      { command: ["/opt/agent"], env: null, cwd: "notes.txt" },
      { pathEnv: "/bin", boardCwd: "/srv/board", check: () => "not_executable", checkDir: () => "not_directory" },
    );
    assert.deepEqual(
      problems.map((p) => p.code),
      ["cwd_not_directory", "command_not_executable"],
    );
  });

  test("the profile's own PATH is where a bare command is looked up", () => {
    const problems = profileProblems(
      { command: ["agent"], env: { PATH: "/opt/bin" }, cwd: null },
      { pathEnv: "/bin", boardCwd: "/", check: only("/opt/bin/agent"), checkDir: () => "ok" },
    );
    assert.deepEqual(problems, []);
  });

  test("a relative command path is not judged while its folder is missing", () => {
    const problems = profileProblems(
      { command: ["./agent"], env: null, cwd: "/gone" },
      { pathEnv: "/bin", boardCwd: "/", check: only(), checkDir: () => "missing" },
    );
    assert.deepEqual(
      problems.map((p) => p.path),
      ["cwd"],
    );
  });
});
