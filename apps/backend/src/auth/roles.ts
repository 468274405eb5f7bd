// Who may call which route (docs/API.md "Security model"). One row per registered route; a
// completeness test (roles.test.ts) fails when a route is added without a row, or a row outlives
// its route. Admins decide what runs on the host (agent profiles are command lines, repositories
// are folders agents work in, runtime flags change the board) and who may sign in; operators run
// the work (tasks, prompts, answers, reviews, merges) and read everything that is not a secret.
import type { Role } from "@kandev/protocol";

/** `public`: no credentials needed; otherwise the least role that may call the route. */
export type Access = "public" | Role;

export const ROUTE_ACCESS: Readonly<Record<string, Access>> = {
  "GET /api/v1/health": "public",
  "POST /api/v1/auth/setup": "public",
  "POST /api/v1/auth/login": "public",
  "POST /api/v1/auth/logout": "operator",
  "GET /api/v1/auth/me": "operator",
  "POST /api/v1/auth/password": "operator",

  "POST /api/v1/users": "admin",
  "GET /api/v1/users": "admin",
  "DELETE /api/v1/users/:id": "admin",
  "POST /api/v1/users/:id/password": "admin",
  // Own tokens for everyone; the handlers widen list and revoke to every token for admins.
  "POST /api/v1/tokens": "operator",
  "GET /api/v1/tokens": "operator",
  "DELETE /api/v1/tokens/:id": "operator",

  "GET /api/v1/agent-profiles": "operator",
  "POST /api/v1/agent-profiles": "admin",
  "PATCH /api/v1/agent-profiles/:id": "admin",
  "DELETE /api/v1/agent-profiles/:id": "admin",
  "GET /api/v1/agent-presets": "operator",
  "POST /api/v1/agent-profiles/from-preset": "admin",

  "GET /api/v1/runtime-flags": "operator",
  "PATCH /api/v1/runtime-flags/:key": "admin",

  "POST /api/v1/repositories": "admin",
  "GET /api/v1/repositories": "operator",
  "GET /api/v1/repositories/:id": "operator",
  "GET /api/v1/repositories/:id/branches": "operator",
  "DELETE /api/v1/repositories/:id": "admin",

  "POST /api/v1/tasks": "operator",
  "GET /api/v1/tasks": "operator",
  "GET /api/v1/tasks/:id": "operator",
  "PATCH /api/v1/tasks/:id": "operator",
  "DELETE /api/v1/tasks/:id": "operator",
  "POST /api/v1/tasks/:id/restart": "operator",
  "GET /api/v1/tasks/:id/sessions": "operator",
  "GET /api/v1/tasks/:id/changes": "operator",
  "POST /api/v1/tasks/:id/merge": "operator",
  "POST /api/v1/tasks/:id/push": "operator",

  "GET /api/v1/sessions/:id": "operator",
  "GET /api/v1/sessions/:id/messages": "operator",
  "GET /api/v1/sessions/:id/logs": "operator",
  "GET /api/v1/sessions/:id/plan": "operator",
  "POST /api/v1/sessions/:id/mode": "operator",
  "POST /api/v1/sessions/:id/config-options": "operator",
  "POST /api/v1/sessions/:id/prompt": "operator",
  "DELETE /api/v1/sessions/:id/queued-prompts/:queuedId": "operator",
  "POST /api/v1/sessions/:id/queued-prompts/:queuedId/send-now": "operator",
  "POST /api/v1/sessions/:id/cancel": "operator",
  "POST /api/v1/sessions/:id/close": "operator",
  "POST /api/v1/sessions/:id/permissions/:pendingId/respond": "operator",

  "GET /api/v1/clarifications": "operator",
  "GET /api/v1/clarifications/:pendingId": "operator",
  "POST /api/v1/clarifications/:pendingId/respond": "operator",
  "GET /api/v1/notification-settings": "operator",
  "PATCH /api/v1/notification-settings": "operator",
};

/**
 * The access rule of a route (`METHOD pattern`, as registered). A route missing from the table is
 * admin-only: forgetting a row must never open a route (the completeness test catches it first).
 */
export function routeAccess(method: string, pattern: string): Access {
  return ROUTE_ACCESS[`${method.toUpperCase()} ${pattern}`] ?? "admin";
}

const RANK: Record<Role, number> = { operator: 1, admin: 2 };

/** Whether `role` may call a route needing `access`. */
export function mayAccess(role: Role, access: Access): boolean {
  return access === "public" || RANK[role] >= RANK[access];
}
