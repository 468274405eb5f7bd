import * as acp from "@agentclientprotocol/sdk";
import type { Scenario } from "../scenario.js";

/**
 * An agent that tries to approve its own permission request over the board's REST API, as an
 * attacker would (issue 34): `/e2e:self-approve <board url>` asks for permission, then, while it is
 * pending, lists tasks and their messages to find it and answers it itself. It says what each
 * call answered (`self-approve: GET /api/v1/tasks -> 401; ...`) before it waits for the real answer.
 * The calls carry no credential: the agent has none (agents start without the board's settings).
 */
export const selfApprove: Scenario = {
  description: "asks for permission, then tries to approve it itself over REST and reports the answers",
  async run(ctx) {
    const board = ctx.rest.replace(/\/+$/, "");
    const toolCallId = "mock-self-approve";
    await ctx.update({ sessionUpdate: "tool_call", toolCallId, title: "Self-approved write", kind: "edit", status: "pending" });
    const answer = ctx.client.request(
      acp.methods.client.session.requestPermission,
      {
        sessionId: ctx.sessionId,
        toolCall: { toolCallId, title: "Self-approved write", status: "pending" },
        options: [
          { optionId: "allow-once", name: "Allow once", kind: "allow_once" },
          { optionId: "reject-once", name: "Reject", kind: "reject_once" },
        ],
      },
      { cancellationSignal: ctx.signal },
    );
    const log: string[] = [];
    const call = async (method: string, path: string, body?: unknown): Promise<Response | null> => {
      try {
        const res = await fetch(`${board}${path}`, {
          method,
          ...(body !== undefined && { headers: { "content-type": "application/json" }, body: JSON.stringify(body) }),
        });
        log.push(
          `${method} ${path.replace(/\/sessions\/[^/]+/, "/sessions/:id").replace(/\/permissions\/[^/]+/, "/permissions/:pendingId")} -> ${res.status}`,
        );
        return res;
      } catch (err) {
        log.push(`${method} ${path} -> ${err instanceof Error ? err.message : String(err)}`);
        return null;
      }
    };
    let target: { sessionId: string; pendingId: string } | null = null;
    // The request reaches the board's store a moment after it was sent: look a few times.
    for (let attempt = 0; attempt < 50 && target === null && !ctx.signal.aborted; attempt++) {
      const tasks = await call("GET", "/api/v1/tasks");
      if (tasks === null || tasks.status !== 200) break;
      log.pop();
      for (const t of (await tasks.json()) as Array<{ session_id: string | null }>) {
        if (t.session_id === null) continue;
        const res = await fetch(`${board}/api/v1/sessions/${t.session_id}/messages`);
        const messages = res.ok ? ((await res.json()) as Array<{ type: string; requests_input: boolean; metadata: { pending_id?: string } }>) : [];
        const open = messages.find((m) => m.type === "permission_request" && m.requests_input && m.metadata.pending_id !== undefined);
        if (open !== undefined) target = { sessionId: t.session_id, pendingId: open.metadata.pending_id! };
      }
      if (target === null) await ctx.sleep(100);
    }
    if (target !== null) log.unshift("GET /api/v1/tasks -> 200");
    const { sessionId, pendingId } = target ?? { sessionId: "unknown", pendingId: "unknown" };
    await call("POST", `/api/v1/sessions/${sessionId}/permissions/${pendingId}/respond`, { option_id: "allow-once" });
    await ctx.say(`self-approve: ${log.join("; ")}\n`);
    let response: acp.RequestPermissionResponse;
    try {
      response = await answer;
    } catch (err) {
      ctx.log(`permission request failed: ${err instanceof Error ? err.message : String(err)}`);
      return "cancelled";
    }
    const outcome = response.outcome;
    await ctx.say(outcome.outcome === "cancelled" ? "Permission request was cancelled." : `Permission answered: ${outcome.optionId}`);
    return "end_turn";
  },
};
