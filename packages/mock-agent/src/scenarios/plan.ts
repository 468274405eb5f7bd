import * as acp from "@agentclientprotocol/sdk";
import type { Scenario } from "../scenario.js";

/** The three entries `/e2e:plan` reports. */
export const PLAN_STEPS = ["Read the code", "Change the greeting", "Run the tests"] as const;

type Status = acp.PlanEntryStatus;

function planUpdate(statuses: readonly [Status, Status, Status]): acp.SessionUpdate {
  const priorities: acp.PlanEntryPriority[] = ["high", "medium", "low"];
  return {
    sessionUpdate: "plan",
    entries: PLAN_STEPS.map((content, i) => ({ content, priority: priorities[i]!, status: statuses[i]! })),
  };
}

let asks = 0;

/**
 * Reports a three-entry plan, then the same plan with its statuses moved on, then all done.
 * `/e2e:plan ask` waits between the first two for a permission answer, so a test sees the plan
 * change in place at a moment it chooses (allowing goes on; rejecting ends the turn there).
 */
export const plan: Scenario = {
  description: "reports a plan of three entries and updates their statuses (`ask`: waits for a permission in between)",
  async run(ctx) {
    await ctx.update(planUpdate(["in_progress", "pending", "pending"]));
    await ctx.say("Planning.");
    if (ctx.rest === "ask") {
      asks += 1;
      const toolCallId = `mock-plan-${asks}`;
      const title = "Continue with the plan";
      await ctx.update({ sessionUpdate: "tool_call", toolCallId, title, kind: "other", status: "pending" });
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
      } catch {
        return "cancelled";
      }
      const allowed = response.outcome.outcome === "selected" && response.outcome.optionId === "allow-once";
      await ctx.update({ sessionUpdate: "tool_call_update", toolCallId, status: allowed ? "completed" : "failed" });
      if (!allowed) return "end_turn";
    }
    await ctx.update(planUpdate(["completed", "in_progress", "pending"]));
    await ctx.update(planUpdate(["completed", "completed", "completed"]));
    await ctx.say("Plan done.");
    return "end_turn";
  },
};
