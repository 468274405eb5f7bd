import { ClarificationAnswerSchema, ClarificationStatusSchema, PatchNotificationSettingsBodySchema } from "@kandev/protocol";
import { requestUser } from "../auth/request-user.js";
import type { ClarificationService } from "../clarifications/service.js";
import type { NotificationService } from "../notifications/service.js";
import { notFound } from "./errors.js";
import type { Router } from "./router.js";

/** Clarification and notification-settings routes of docs/API.md. */
export function addClarificationRoutes(router: Router, deps: { clarifications: ClarificationService; notifications: NotificationService }): void {
  const { clarifications, notifications } = deps;

  router.add("GET", "/api/v1/clarifications", (ctx) => {
    const sessionId = ctx.query.get("session_id");
    const rawStatus = ctx.query.get("status");
    const status = rawStatus === null ? undefined : ClarificationStatusSchema.parse(rawStatus);
    return {
      status: 200,
      body: clarifications.list({ ...(sessionId !== null && { sessionId }), ...(status !== undefined && { status }) }),
    };
  });
  router.add("GET", "/api/v1/clarifications/:pendingId", (ctx) => {
    const view = clarifications.get(ctx.params.pendingId!);
    if (view === undefined) throw notFound(`clarification ${ctx.params.pendingId}`);
    return { status: 200, body: view };
  });
  router.add("POST", "/api/v1/clarifications/:pendingId/respond", async (ctx) => {
    // The body passed the 1 MiB limit in ctx.body(); the schema bounds everything inside it.
    const answer = ClarificationAnswerSchema.parse(await ctx.body());
    // Forwards (or, for the kandev tool, has the record adjudicate) and maps errors; the outcome
    // is recorded by whoever settles it, never here.
    return { status: 200, body: await clarifications.respond(ctx.params.pendingId!, answer, requestUser(ctx.req).username) };
  });

  router.add("GET", "/api/v1/notification-settings", () => ({ status: 200, body: notifications.settings() }));
  router.add("PATCH", "/api/v1/notification-settings", async (ctx) => {
    const patch = PatchNotificationSettingsBodySchema.parse(await ctx.body());
    return { status: 200, body: notifications.updateSettings(patch) };
  });
}
