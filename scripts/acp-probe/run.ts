// One probe run: spawn the agent command, speak ACP to it over stdio (initialize, session/new,
// session/prompt), record every frame both ways, answer elicitations and permissions as told, stop
// the agent. Never throws for an agent failure: the run carries `error` with the phase it hit.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk";
import { buildClientCapabilities } from "@kandev/agentctl";
import { emptySessionState, notePlan, noteSessionState, noteToolCall, type ProbeRun } from "./report.js";
import { WireRecorder } from "./wire.js";

export interface RunOptions {
  agent: string[];
  elicitation: "on" | "off";
  prompt: string;
  answer: Record<string, unknown> | null;
  permission: "allow" | "deny";
  agentId: string;
  cwd: string;
  timeoutMs: number;
}

const STDERR_TAIL_CHARS = 2048;
const KILL_GRACE_MS = 2000;
/** How long a failed request waits for the agent's exit status so it can be reported. */
const EXIT_REPORT_GRACE_MS = 1000;

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

/** A step that cannot finish: the agent exited, the deadline passed, or it answered an error. */
class StepFailure extends Error {}

function describeExit(code: number | null, signal: NodeJS.Signals | null): string {
  return signal !== null ? `was killed by ${signal}` : `exited with code ${code}`;
}

/** Starts the command; resolves once it is running, or rejects with a clear message (missing binary, bad cwd). */
async function start(agent: string[], cwd: string): Promise<ChildProcessWithoutNullStreams> {
  const [file, ...args] = agent;
  const child = spawn(file!, args, { cwd, env: process.env, stdio: "pipe" });
  await new Promise<void>((resolve, reject) => {
    child.once("spawn", resolve);
    child.once("error", (err: NodeJS.ErrnoException) => {
      const hint = err.code === "ENOENT" ? " (is it installed and on PATH, and does --cwd exist?)" : "";
      reject(new StepFailure(`cannot start agent command "${file}": ${err.message}${hint}`));
    });
  });
  child.stdin.on("error", () => {}); // EPIPE on a dead agent: the exit path reports it
  return child;
}

async function stop(child: ChildProcessWithoutNullStreams, exited: Promise<unknown>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.stdin.end();
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), KILL_GRACE_MS);
  await exited;
  clearTimeout(timer);
}

export async function runProbe(opts: RunOptions): Promise<ProbeRun> {
  const clientCapabilities = buildClientCapabilities(opts.agentId, { acpElicitation: opts.elicitation === "on" });
  const recorder = new WireRecorder();
  const run: ProbeRun = {
    elicitation: opts.elicitation,
    command: opts.agent,
    clientCapabilities,
    agentCapabilities: null,
    sessionId: null,
    sequence: recorder.entries,
    elicitations: [],
    permissions: [],
    toolCalls: [],
    plans: [],
    sessionState: emptySessionState(),
    agentText: "",
    stopReason: null,
    error: null,
  };
  let phase = "start";
  let child: ChildProcessWithoutNullStreams;
  try {
    child = await start(opts.agent, opts.cwd);
  } catch (err) {
    run.error = { phase, message: (err as Error).message };
    return run;
  }

  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr = (stderr + d).slice(-STDERR_TAIL_CHARS)));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("close", (code, signal) => resolve({ code, signal })),
  );
  const tail = () =>
    stderr.trim().length > 0 ? `\nagent stderr (last ${STDERR_TAIL_CHARS} chars):\n${stderr.trimEnd()}` : "\nagent stderr: (empty)";
  const exitFailure = exited.then(({ code, signal }) => {
    throw new StepFailure(`the agent ${describeExit(code, signal)} during ${phase}${tail()}`);
  });
  let deadlineTimer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    deadlineTimer = setTimeout(() => reject(new StepFailure(`timed out after ${opts.timeoutMs} ms during ${phase}${tail()}`)), opts.timeoutMs);
  });
  exitFailure.catch(() => {});
  deadline.catch(() => {});
  /** The SDK often sees the closed pipe before the exit status is known; prefer reporting the exit. */
  const failureMessage = async (err: unknown): Promise<string> => {
    if (err instanceof StepFailure) return err.message;
    if (err instanceof acp.RequestError) return `the agent answered ${phase} with error ${err.code}: ${err.message}${tail()}`;
    const exit = await Promise.race([exited, delay(EXIT_REPORT_GRACE_MS).then(() => null)]);
    if (exit !== null) return `the agent ${describeExit(exit.code, exit.signal)} during ${phase}${tail()}`;
    return `${phase} failed: ${err instanceof Error ? err.message : String(err)}${tail()}`;
  };
  const step = <T>(name: string, p: Promise<T>): Promise<T> => {
    phase = name;
    return Promise.race([p, exitFailure, deadline]);
  };

  const base = acp.ndJsonStream(
    Writable.toWeb(child.stdin) as WritableStream<Uint8Array>,
    Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>,
  );
  const readable = base.readable.pipeThrough(
    new TransformStream<acp.AnyMessage, acp.AnyMessage>({
      transform(message, controller) {
        recorder.record("agent->client", message);
        controller.enqueue(message);
      },
    }),
  );
  const writer = base.writable.getWriter();
  const writable = new WritableStream<acp.AnyMessage>({
    write(message) {
      recorder.record("client->agent", message);
      return writer.write(message);
    },
    close: () => writer.close(),
    abort: (reason) => writer.abort(reason),
  });

  const app = acp
    .client({ name: "kandev-acp-probe" })
    .onNotification(acp.methods.client.session.update, ({ params }) => {
      const update = params.update as unknown as Record<string, unknown>;
      noteToolCall(run.toolCalls, update);
      notePlan(run.plans, update);
      noteSessionState(run.sessionState, update);
      const content = update.content as { type?: unknown; text?: unknown } | undefined;
      if (update.sessionUpdate === "agent_message_chunk" && content?.type === "text" && typeof content.text === "string") {
        run.agentText += content.text;
      }
    })
    .onRequest(acp.methods.client.session.requestPermission, ({ params }) => {
      const wanted = opts.permission === "allow" ? ["allow_once", "allow_always"] : ["reject_once", "reject_always"];
      const option = params.options.find((o) => wanted.includes(o.kind));
      const response: acp.RequestPermissionResponse =
        option === undefined ? { outcome: { outcome: "cancelled" } } : { outcome: { outcome: "selected", optionId: option.optionId } };
      run.permissions.push({ params, response });
      return response;
    })
    // Raw params: the probe records whatever the agent sends, malformed or not.
    .onRequest(
      acp.methods.client.elicitation.create,
      (raw: unknown) => raw,
      ({ params }) => {
        const response = opts.answer === null ? { action: "decline" } : { action: "accept", content: opts.answer };
        run.elicitations.push({ params, response });
        return response as acp.CreateElicitationResponse;
      },
    );
  const connection = app.connect({ readable, writable });

  try {
    const init = await step(
      "initialize",
      connection.agent.request(acp.methods.agent.initialize, {
        protocolVersion: acp.PROTOCOL_VERSION,
        clientCapabilities: clientCapabilities as acp.ClientCapabilities,
        clientInfo: { name: "kandev-acp-probe", version: "0.1.0" },
      }),
    );
    run.agentCapabilities = init.agentCapabilities ?? null;
    const session = await step("session/new", connection.agent.request(acp.methods.agent.session.new, { cwd: opts.cwd, mcpServers: [] }));
    run.sessionId = session.sessionId;
    run.sessionState.modes = session.modes ?? null;
    run.sessionState.configOptions = session.configOptions ?? null;
    const res = await step(
      "session/prompt",
      connection.agent.request(acp.methods.agent.session.prompt, {
        sessionId: session.sessionId,
        prompt: [{ type: "text", text: opts.prompt }],
      }),
    );
    run.stopReason = res.stopReason;
  } catch (err) {
    run.error = { phase, message: await failureMessage(err) };
  } finally {
    clearTimeout(deadlineTimer);
    await stop(child, exited);
    connection.close();
  }
  return run;
}
