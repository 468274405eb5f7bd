// What the board exposes and to whom (docs/RELIABILITY.md §5). Only what no other test proves:
// the bind address, DNS rebinding (a foreign Host), CSP on every kind of page of the built web
// app, secrets absent from every log and from every process' command line, and no raw-HTML sink
// in the web app. The Origin checks, body limits, and notification bodies are
// proven elsewhere (cited in RELIABILITY.md).
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import path from "node:path";
import WebSocket from "ws";
import { respond, waitForClarifications } from "../clarification-helpers.js";
import {
  api,
  backendMain,
  descendants,
  getMessages,
  killBackendProcesses,
  repoRoot,
  requireBuilt,
  startBackendProcess,
  startTestServer,
  tempDir,
  waitForTaskState,
} from "../helpers.js";

/** A raw HTTP request with any Host header (fetch does not let a test choose it). */
function rawRequest(
  base: string,
  method: string,
  p: string,
  host: string,
  body?: unknown,
  origin?: string,
): Promise<{ status: number; text: string }> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        method,
        path: p,
        headers: {
          host,
          ...(origin !== undefined && { origin }),
          ...(payload !== undefined && { "content-type": "application/json", "content-length": Buffer.byteLength(payload) }),
        },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8").on("data", (d: string) => (text += d));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on("error", reject);
    req.end(payload);
  });
}

function upgradeStatus(base: string, host: string, origin: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${base.replace(/^http/, "ws")}/ws`, { headers: { host }, origin });
    ws.once("open", () => {
      ws.close();
      resolve(101);
    });
    ws.once("unexpected-response", (_req, res) => resolve(res.statusCode ?? 0));
    ws.once("error", (err) => reject(err));
  });
}

function connects(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect({ host, port });
    s.once("connect", () => {
      s.destroy();
      resolve(true);
    });
    s.once("error", () => resolve(false));
  });
}

describe("bind address and DNS rebinding (in-process board)", () => {
  test("the board listens on 127.0.0.1 unless told otherwise", async () => {
    const loopbackOnly = await startTestServer();
    const everywhere = await startTestServer({ host: "0.0.0.0" });
    try {
      assert.equal(await connects("127.0.0.1", loopbackOnly.port), true);
      assert.equal(await connects("127.0.0.2", loopbackOnly.port), false, "not reachable on another address");
      assert.equal(await connects("127.0.0.2", everywhere.port), true, "KANDEV_HOST=0.0.0.0 is honoured");
    } finally {
      await loopbackOnly.close();
      await everywhere.close();
    }
  });

  test("a request whose Host names a foreign site (DNS rebinding) is refused before anything runs: reads, writes, pages and /ws", async () => {
    const server = await startTestServer();
    try {
      const base = server.url;
      const evil = `evil.example:${server.port}`;
      const origin = `http://${evil}`;
      // Same-origin from the attacker's point of view: the Origin check alone would let it through.
      const create = await rawRequest(
        base,
        "POST",
        "/api/v1/agent-profiles",
        evil,
        { id: "pwned", name: "x", command: ["/bin/sh", "-c", "id"] },
        origin,
      );
      assert.equal(create.status, 403);
      assert.equal(JSON.parse(create.text).error.code, "FORBIDDEN_HOST");
      assert.equal(
        (await api<Array<{ id: string }>>(base, "GET", "/api/v1/agent-profiles")).body.some((p) => p.id === "pwned"),
        false,
      );
      const read = await rawRequest(base, "GET", "/api/v1/agent-profiles", evil);
      assert.equal(read.status, 403, "profiles (and their env values) are not readable either");
      assert.equal((await rawRequest(base, "GET", "/", evil)).status, 403, "nor pages");
      assert.equal(await upgradeStatus(base, evil, origin), 403);
      // The board's own names still work.
      for (const host of [`127.0.0.1:${server.port}`, `localhost:${server.port}`]) {
        assert.equal((await rawRequest(base, "GET", "/api/v1/health", host)).status, 200, host);
        assert.equal(await upgradeStatus(base, host, `http://${host}`), 101, host);
      }
    } finally {
      await server.close();
    }
  });
});

describe("the built board as a process: pages, logs and secrets", () => {
  after(killBackendProcesses);

  test("CSP and the other headers on every kind of page; no secret (profile env value) in any log, message or command line; agentctl holds no token", async () => {
    requireBuilt([backendMain, path.join(repoRoot, "apps/web/.next/BUILD_ID")]);
    const dir = tempDir();
    const canary = `canary-${randomBytes(8).toString("hex")}`;
    const b = await startBackendProcess(path.join(dir, "kandev.db"), { KANDEV_SERVE_WEB: "true", KANDEV_FEATURES_ACP_ELICITATION: "true" });
    let stdout = "";
    b.child.stdout!.on("data", (d: Buffer) => (stdout += d.toString()));
    try {
      const base = b.url;
      // A profile whose env holds a secret, running the mock agent through a question and a crash.
      const mock = (await api<Array<{ id: string; command: string[] }>>(base, "GET", "/api/v1/agent-profiles")).body.find((p) => p.id === "mock")!;
      assert.equal(
        (
          await api(base, "POST", "/api/v1/agent-profiles", {
            id: "secret",
            name: "secret",
            command: mock.command,
            env: { KANDEV_TEST_API_KEY: canary },
          })
        ).status,
        201,
      );
      const asked = await api<{ task: { id: string }; session: { id: string } }>(base, "POST", "/api/v1/tasks", {
        title: "t",
        prompt: "/e2e:elicit-ask",
        agent_profile_id: "secret",
      });
      const [m] = await waitForClarifications(base, asked.body.session.id);
      const agentctl = descendants(b.child.pid!).find((pid) => fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("agentctl"))!;
      // Its channel is the pipe the board spawned it with: there is no token to leak.
      assert.ok(!fs.readFileSync(`/proc/${agentctl}/environ`, "utf8").includes("AGENTCTL_TOKEN="), "agentctl gets no token");
      const cmdlines = [b.child.pid!, ...descendants(b.child.pid!)].map((pid) => fs.readFileSync(`/proc/${pid}/cmdline`, "utf8"));
      for (const c of cmdlines) assert.ok(!c.includes(canary), "never on a command line (ps)");
      const agent = descendants(agentctl)[0]!;
      const agentEnv = fs.readFileSync(`/proc/${agent}/environ`, "utf8");
      assert.ok(agentEnv.includes(canary), "the agent gets its profile env");
      assert.equal(
        (await respond(base, m!.metadata.pending_id as string, { answers: [{ question_id: "question_0", selected_options: ["Red"] }] })).status,
        200,
      );
      await waitForTaskState(base, asked.body.task.id, "REVIEW");
      const crashed = await api<{ task: { id: string }; session: { id: string } }>(base, "POST", "/api/v1/tasks", {
        title: "c",
        prompt: "/e2e:crash",
        agent_profile_id: "secret",
      });
      await waitForTaskState(base, crashed.body.task.id, "FAILED");
      // Error paths log more: a refused request, a failed start.
      await api(base, "POST", "/api/v1/agent-profiles", {
        id: "broken",
        name: "b",
        command: ["/nonexistent/agent"],
        env: { KANDEV_TEST_API_KEY: canary },
      });
      const broken = await api<{ task: { id: string } }>(base, "POST", "/api/v1/tasks", { title: "b", prompt: "hi", agent_profile_id: "broken" });
      if (broken.status === 201) await waitForTaskState(base, broken.body.task.id, "FAILED");
      else assert.equal(broken.status, 400, "refused up front, or failed at start");

      // Pages: every kind carries the CSP (agent text can never run as script), framing refused.
      for (const p of ["/", `/tasks/${asked.body.task.id}`, "/settings", "/no-such-page"]) {
        const res = await fetch(`${base}${p}`);
        await res.arrayBuffer();
        assert.match(res.headers.get("content-security-policy") ?? "", /default-src 'self'.*object-src 'none'.*frame-ancestors 'none'/, p);
        assert.equal(res.headers.get("x-content-type-options"), "nosniff", p);
        assert.equal(res.headers.get("x-frame-options"), "DENY", p);
      }

      const everything = [
        stdout,
        b.stderr(),
        ...(await getMessages(base, asked.body.session.id)).map((x) => JSON.stringify(x)),
        ...(await getMessages(base, crashed.body.session.id)).map((x) => JSON.stringify(x)),
      ].join("\n");
      assert.ok(everything.length > 200, "there was something to search");
      assert.ok(!everything.includes(canary), "the profile's secret value is in no log or message");
    } finally {
      b.child.kill("SIGTERM");
      await b.exited;
    }
  });
});

describe("agent text is never HTML", () => {
  test("no component of the web app uses a raw-HTML sink (dangerouslySetInnerHTML, innerHTML, outerHTML, insertAdjacentHTML)", () => {
    const hits: string[] = [];
    const walk = (dir: string) => {
      for (const name of fs.readdirSync(dir)) {
        if (name === "node_modules" || name === ".next") continue;
        const full = path.join(dir, name);
        if (fs.statSync(full).isDirectory()) walk(full);
        else if (/\.(tsx?|jsx?)$/.test(name) && !/\.test\.tsx?$/.test(name)) {
          const text = fs.readFileSync(full, "utf8");
          if (/dangerouslySetInnerHTML|\.innerHTML\s*=|\.outerHTML\s*=|insertAdjacentHTML/.test(text)) hits.push(path.relative(repoRoot, full));
        }
      }
    };
    walk(path.join(repoRoot, "apps/web"));
    assert.deepEqual(hits, []);
  });
});
