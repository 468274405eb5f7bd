#!/usr/bin/env node
// A small real ACP agent that advertises `loadSession` and keeps its sessions in a JSON file
// (RESUMABLE_AGENT_STORE), so a NEW process can `session/load` a session an earlier one created.
// Each prompt is answered with what the session remembers: "turn <n>; earlier: <prompts>".
// While loading it replays the history as session/update notifications, as real agents do, so
// tests can prove agentctl does not re-emit them. Used by agentctl's and the backend's resume tests.
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk";

const storeFile = process.env.RESUMABLE_AGENT_STORE;
if (!storeFile) {
  process.stderr.write("resumable-agent: RESUMABLE_AGENT_STORE is not set\n");
  process.exit(2);
}
/** @returns {Record<string, {prompts: string[]}>} */
const load = () => (fs.existsSync(storeFile) ? JSON.parse(fs.readFileSync(storeFile, "utf8")) : {});
const save = (sessions) => fs.writeFileSync(storeFile, JSON.stringify(sessions));
const open = new Set();
// RESUMABLE_AGENT_MODES=1: sessions have modes, the current one kept in the store, so a loaded
// session answers session/load with the mode it was left in (the backend's settings tests).
const withModes = process.env.RESUMABLE_AGENT_MODES === "1";
const AVAILABLE_MODES = [
  { id: "default", name: "Ask" },
  { id: "plan", name: "Plan" },
];
const modesOf = (session) => (withModes ? { modes: { currentModeId: session.mode ?? "default", availableModes: AVAILABLE_MODES } } : {});

const say = (client, sessionId, text) =>
  client.notify(acp.methods.client.session.update, { sessionId, update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text } } });

const app = acp
  .agent({ name: "resumable-agent" })
  .onRequest(acp.methods.agent.initialize, () => ({
    protocolVersion: acp.PROTOCOL_VERSION,
    agentCapabilities: { loadSession: true },
    agentInfo: { name: "resumable-agent", version: "0.0.1" },
    authMethods: [],
  }))
  .onRequest(acp.methods.agent.session.new, () => {
    const sessionId = `resumable-${randomUUID()}`;
    const sessions = load();
    sessions[sessionId] = { prompts: [] };
    save(sessions);
    open.add(sessionId);
    return { sessionId, ...modesOf(sessions[sessionId]) };
  })
  .onRequest(acp.methods.agent.session.setMode, ({ params }) => {
    const sessions = load();
    const session = sessions[params.sessionId];
    if (!withModes || session === undefined || !AVAILABLE_MODES.some((m) => m.id === params.modeId)) {
      throw acp.RequestError.invalidParams({ modeId: params.modeId }, "unknown mode");
    }
    session.mode = params.modeId;
    save(sessions);
    return {};
  })
  .onRequest(acp.methods.agent.session.load, async ({ params, client }) => {
    const session = load()[params.sessionId];
    if (session === undefined) throw acp.RequestError.sessionNotFound(params.sessionId);
    for (const p of session.prompts) await say(client, params.sessionId, `(replay) ${p}`);
    open.add(params.sessionId);
    process.stderr.write(`resumable-agent: loaded ${params.sessionId}\n`);
    return modesOf(session);
  })
  .onNotification(acp.methods.agent.session.cancel, () => undefined)
  .onRequest(acp.methods.agent.session.prompt, async ({ params, client }) => {
    if (!open.has(params.sessionId)) throw acp.RequestError.invalidParams({ sessionId: params.sessionId }, "unknown session");
    const text = params.prompt.map((b) => (b.type === "text" ? b.text : "")).join("");
    const sessions = load();
    const session = sessions[params.sessionId];
    await say(client, params.sessionId, `turn ${session.prompts.length + 1}; earlier: ${session.prompts.join(" | ") || "(none)"}`);
    session.prompts.push(text);
    save(sessions);
    return { stopReason: "end_turn" };
  });

const connection = app.connect(acp.ndJsonStream(Writable.toWeb(process.stdout), Readable.toWeb(process.stdin)));
void connection.closed.then(() => process.exit(0));
process.on("SIGTERM", () => process.exit(0));
