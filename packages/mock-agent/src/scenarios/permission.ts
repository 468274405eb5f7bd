import * as acp from "@agentclientprotocol/sdk";
import type { Scenario } from "../scenario.js";

let permissionCalls = 0;

/** Asks `session/request_permission` (allow once / reject once) and says what came back. */
export const permission: Scenario = {
  description: "asks for permission and reports the chosen option",
  async run(ctx) {
    permissionCalls += 1;
    const toolCallId = `mock-perm-${permissionCalls}`;
    const title = ctx.rest.length > 0 ? ctx.rest : "Write to disk";
    await ctx.update({ sessionUpdate: "tool_call", toolCallId, title, kind: "edit", status: "pending" });
    let response: acp.RequestPermissionResponse;
    try {
      response = await ctx.client.request(
        acp.methods.client.session.requestPermission,
        {
          sessionId: ctx.sessionId,
          toolCall: { toolCallId, title, status: "pending" },
          options: [
            { optionId: "allow-once", name: "Allow once", kind: "allow_once" },
            { optionId: "reject-once", name: "Reject", kind: "reject_once" },
          ],
        },
        { cancellationSignal: ctx.signal },
      );
    } catch (err) {
      ctx.log(`permission request failed: ${err instanceof Error ? err.message : String(err)}`);
      return "cancelled";
    }
    const outcome = response.outcome;
    if (outcome.outcome === "cancelled") {
      await ctx.update({ sessionUpdate: "tool_call_update", toolCallId, status: "failed" });
      await ctx.say("Permission request was cancelled.");
      return ctx.signal.aborted ? "cancelled" : "end_turn";
    }
    const allowed = outcome.optionId === "allow-once";
    await ctx.update({ sessionUpdate: "tool_call_update", toolCallId, status: allowed ? "completed" : "failed" });
    await ctx.say(`Permission ${allowed ? "granted" : "denied"}: ${outcome.optionId}`);
    return "end_turn";
  },
};
