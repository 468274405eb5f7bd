import { createRequire } from "node:module";
import {
  PatchRuntimeFlagBodySchema,
  PatchTaskBodySchema,
  PermissionRespondBodySchema,
  PromptBodySchema,
  RestartTaskBodySchema,
  SetConfigOptionBodySchema,
  SetModeBodySchema,
  TaskStateSchema,
} from "@kandev/protocol";
import type { IncomingMessage } from "node:http";
import { requestUser } from "../auth/request-user.js";
import type { AuthService, Credential } from "../auth/service.js";
import type { ClarificationService } from "../clarifications/service.js";
import type { FlagService } from "../flags/service.js";
import type { SessionManager } from "../lifecycle/session-manager.js";
import type { LiveStore } from "../lifecycle/store.js";
import type { NotificationService } from "../notifications/service.js";
import * as clarificationsRepo from "../repos/clarifications.js";
import * as messagesRepo from "../repos/messages.js";
import * as sessionsRepo from "../repos/sessions.js";
import * as tasksRepo from "../repos/tasks.js";
import type { ProfileCheckContext } from "../agents/profile-check.js";
import type { PresetContext } from "../agents/presets.js";
import { patchTask } from "../lifecycle/task-edits.js";
import type { SessionLogs } from "../lifecycle/session-logs.js";
import { toMessages, toTask } from "../views.js";
import type { WorkspaceService } from "../workspaces/service.js";
import { addAgentRoutes } from "./agent-routes.js";
import { addAuthRoutes } from "./auth-routes.js";
import { addClarificationRoutes } from "./clarification-routes.js";
import { notFound, validationError } from "./errors.js";
import { cutPage, MAX_PAGE_LIMIT, NEXT_CURSOR_HEADER, parsePageRequest } from "./pagination.js";
import { Router } from "./router.js";
import { addWorkspaceRoutes, createTaskRoute } from "./workspace-routes.js";

const { version } = createRequire(import.meta.url)("../../package.json") as { version: string };

export interface RouteDeps {
  store: LiveStore;
  sessions: SessionManager;
  flags: FlagService;
  clarifications: ClarificationService;
  notifications: NotificationService;
  logs: SessionLogs;
  presetContext: () => PresetContext;
  profileCheck: () => ProfileCheckContext;
  workspaces: WorkspaceService;
  auth: AuthService;
  /** How the request proved who it is (the server records it with the request's user). */
  credential: (req: IncomingMessage) => Credential;
}

/** Every REST route of docs/API.md. Handlers validate with the protocol schemas and stay thin. */
export function buildRouter({
  store,
  sessions,
  flags,
  clarifications,
  notifications,
  logs,
  presetContext,
  profileCheck,
  workspaces,
  auth,
  credential,
}: RouteDeps): Router {
  const db = store.db;
  const router = new Router();

  router.add("GET", "/api/v1/health", () => ({ status: 200, body: { status: "ok", version, auth: auth.status() } }));
  addAuthRoutes(router, { auth, credential });

  addAgentRoutes(router, { db, logs, presetContext, profileCheck });

  router.add("POST", "/api/v1/tasks", createTaskRoute(workspaces));
  router.add("GET", "/api/v1/tasks", (ctx) => {
    const rawState = ctx.query.get("state");
    const state = rawState === null ? undefined : TaskStateSchema.parse(rawState);
    const archived = booleanParam(ctx.query.get("archived"), "archived");
    const page = parsePageRequest(ctx.query, ["s", "n"]);
    const rows = tasksRepo.listTasks(db, {
      ...(state !== undefined && { state }),
      archived,
      ...(page.limit !== undefined && { limit: page.limit + 1 }),
      ...(page.cursor !== undefined && { before: page.cursor as [string, number] }),
    });
    const { items, next } = cutPage(rows, page.limit, (r) => [r.createdAt, r.rowid]);
    const latest = sessionsRepo.latestSessionsByTask(
      db,
      items.map((r) => r.id),
    );
    return { status: 200, body: items.map((r) => toTask(r, latest.get(r.id))), ...nextCursor(next) };
  });
  router.add("GET", "/api/v1/tasks/:id", (ctx) => {
    const task = store.taskView(ctx.params.id!);
    if (task === undefined) throw notFound(`task ${ctx.params.id}`);
    return { status: 200, body: task };
  });
  router.add("PATCH", "/api/v1/tasks/:id", async (ctx) => {
    const body = PatchTaskBodySchema.parse(await ctx.body());
    return { status: 200, body: await patchTask(store, sessions, ctx.params.id!, body) };
  });
  router.add("POST", "/api/v1/tasks/:id/restart", async (ctx) => {
    const body = RestartTaskBodySchema.parse((await ctx.body()) ?? {});
    return { status: 201, body: sessions.restartTask(ctx.params.id!, body.prompt, requestUser(ctx.req).username) };
  });
  router.add("GET", "/api/v1/tasks/:id/sessions", (ctx) => {
    if (tasksRepo.getTask(db, ctx.params.id!) === undefined) throw notFound(`task ${ctx.params.id}`);
    return { status: 200, body: sessionsRepo.listSessionsForTask(db, ctx.params.id!).map((r) => store.toSessionView(r)) };
  });

  router.add("GET", "/api/v1/sessions/:id", (ctx) => {
    const row = sessionsRepo.getSession(db, ctx.params.id!);
    if (row === undefined) throw notFound(`session ${ctx.params.id}`);
    return { status: 200, body: store.toSessionView(row) };
  });
  router.add("GET", "/api/v1/sessions/:id/messages", (ctx) => {
    if (sessionsRepo.getSession(db, ctx.params.id!) === undefined) throw notFound(`session ${ctx.params.id}`);
    const page = parsePageRequest(ctx.query, ["n"]);
    // The stored transcript holds every character browsers have been sent.
    sessions.flushStreamed(ctx.params.id!);
    let rows: messagesRepo.MessageRow[];
    let next: string | null = null;
    if (page.limit === undefined && page.cursor === undefined) {
      rows = messagesRepo.listMessages(db, ctx.params.id!);
    } else {
      // Pages run backwards from the end of the transcript; each page still reads oldest first.
      const before = page.cursor?.[0] as number | undefined;
      const fetched = messagesRepo.listMessagesBackwards(db, ctx.params.id!, (page.limit ?? MAX_PAGE_LIMIT) + 1, before);
      const cut = cutPage(fetched, page.limit ?? MAX_PAGE_LIMIT, (m) => [m.seq]);
      rows = cut.items.reverse();
      next = cut.next;
    }
    // A clarification message's status is its record's: joined here, on read.
    const records = rows.some((m) => m.type === "clarification_request")
      ? clarificationsRepo.listClarifications(db, { sessionId: ctx.params.id! })
      : [];
    return { status: 200, body: toMessages(rows, records), ...nextCursor(next) };
  });
  router.add("GET", "/api/v1/sessions/:id/plan", (ctx) => {
    if (sessionsRepo.getSession(db, ctx.params.id!) === undefined) throw notFound(`session ${ctx.params.id}`);
    // The latest turn's plan is the one the agent works to; a turn without one leaves the last standing.
    const row = messagesRepo.latestOfType(db, ctx.params.id!, "plan");
    return { status: 200, body: { plan: row === undefined ? null : (toMessages([row], [])[0] ?? null) } };
  });
  router.add("POST", "/api/v1/sessions/:id/prompt", async (ctx) => {
    const body = PromptBodySchema.parse(await ctx.body());
    const session = sessionsRepo.getSession(db, ctx.params.id!);
    if (session !== undefined) workspaces.assertAcceptsPrompt(session.taskId);
    return { status: 202, body: await sessions.prompt(ctx.params.id!, body.text, requestUser(ctx.req).username) };
  });
  router.add("DELETE", "/api/v1/sessions/:id/queued-prompts/:queuedId", (ctx) => {
    sessions.cancelQueued(ctx.params.id!, ctx.params.queuedId!);
    return { status: 204 };
  });
  router.add("POST", "/api/v1/sessions/:id/queued-prompts/:queuedId/send-now", async (ctx) => {
    const session = sessionsRepo.getSession(db, ctx.params.id!);
    if (session !== undefined) workspaces.assertAcceptsPrompt(session.taskId);
    return { status: 202, body: await sessions.sendQueuedNow(ctx.params.id!, ctx.params.queuedId!) };
  });
  router.add("POST", "/api/v1/sessions/:id/cancel", async (ctx) => {
    await sessions.cancel(ctx.params.id!);
    return { status: 202, body: { ok: true } };
  });
  router.add("POST", "/api/v1/sessions/:id/close", async (ctx) => ({ status: 200, body: await sessions.close(ctx.params.id!) }));
  router.add("POST", "/api/v1/sessions/:id/mode", async (ctx) => {
    const body = SetModeBodySchema.parse(await ctx.body());
    return { status: 200, body: await sessions.settings.setMode(ctx.params.id!, body.mode_id, requestUser(ctx.req).username) };
  });
  router.add("POST", "/api/v1/sessions/:id/config-options", async (ctx) => {
    const body = SetConfigOptionBodySchema.parse(await ctx.body());
    return { status: 200, body: await sessions.settings.setConfigOption(ctx.params.id!, body.config_id, body.value, requestUser(ctx.req).username) };
  });
  router.add("POST", "/api/v1/sessions/:id/permissions/:pendingId/respond", async (ctx) => {
    const body = PermissionRespondBodySchema.parse(await ctx.body());
    await sessions.respondPermission(ctx.params.id!, ctx.params.pendingId!, body, requestUser(ctx.req).username);
    return { status: 200, body: { success: true } };
  });

  router.add("GET", "/api/v1/runtime-flags", () => ({ status: 200, body: flags.list() }));
  router.add("PATCH", "/api/v1/runtime-flags/:key", async (ctx) => {
    const body = PatchRuntimeFlagBodySchema.parse(await ctx.body());
    return { status: 200, body: flags.setOverride(ctx.params.key!, body.value) };
  });

  addClarificationRoutes(router, { clarifications, notifications });
  addWorkspaceRoutes(router, { workspaces });

  return router;
}

/** `?name=true|false` (absent: false); anything else is a 400 naming the parameter. */
function booleanParam(raw: string | null, name: string): boolean {
  if (raw === null || raw === "false") return false;
  if (raw === "true") return true;
  throw validationError(`${name} must be true or false`, [{ path: name, message: "must be true or false" }]);
}

/** The next page's cursor as the reply's header; none on the last page. */
function nextCursor(next: string | null): { headers?: Record<string, string> } {
  return next === null ? {} : { headers: { [NEXT_CURSOR_HEADER]: next } };
}
