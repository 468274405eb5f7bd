// REST routes of repositories and task workspaces (docs/API.md "Repositories", "Workspaces").
import { CreateRepositoryBodySchema, CreateTaskBodySchema, MergeBodySchema, PushBodySchema } from "@kandev/protocol";
import { requestUser } from "../auth/request-user.js";
import { GitError } from "../workspaces/git.js";
import type { WorkspaceService } from "../workspaces/service.js";
import { WorkspaceError } from "../workspaces/worktree-ops.js";
import { HttpError } from "./errors.js";
import type { Handler, Router } from "./router.js";

/**
 * Git's own failures as HTTP errors with codes an operator can act on; everything else passes to
 * the one error mapper (errors.ts).
 */
export function gitErrorToHttp(err: unknown): unknown {
  if (err instanceof GitError) {
    if (err.code === "GIT_NOT_FOUND") return new HttpError(503, "GIT_NOT_FOUND", err.message);
    if (err.code === "GIT_TIMEOUT") return new HttpError(504, "GIT_TIMEOUT", err.message);
    if (/No space left on device/i.test(err.stderr)) return new HttpError(507, "DISK_FULL", `the disk is full: ${err.message}`);
    return new HttpError(500, "GIT_ERROR", err.message);
  }
  if (err instanceof WorkspaceError) {
    if (/No space left on device/i.test(err.message))
      return new HttpError(507, "DISK_FULL", `the disk is full: ${err.message}; nothing was kept of the attempt`);
    return new HttpError(err.reason === "worktree_missing" ? 409 : 500, "WORKTREE_FAILED", err.message);
  }
  return err;
}

function guarded(handler: Handler): Handler {
  return async (ctx) => {
    try {
      return await handler(ctx);
    } catch (err) {
      throw gitErrorToHttp(err);
    }
  };
}

export function addWorkspaceRoutes(router: Router, { workspaces }: { workspaces: WorkspaceService }): void {
  const add = (method: string, pattern: string, handler: Handler) => router.add(method, pattern, guarded(handler));

  add("POST", "/api/v1/repositories", async (ctx) => {
    const body = CreateRepositoryBodySchema.parse(await ctx.body());
    return { status: 201, body: await workspaces.addRepository(body) };
  });
  add("GET", "/api/v1/repositories", () => ({ status: 200, body: workspaces.listRepositories() }));
  add("GET", "/api/v1/repositories/:id", (ctx) => ({ status: 200, body: workspaces.getRepository(ctx.params.id!) }));
  add("GET", "/api/v1/repositories/:id/branches", async (ctx) => ({ status: 200, body: await workspaces.branches(ctx.params.id!) }));
  add("DELETE", "/api/v1/repositories/:id", (ctx) => {
    workspaces.removeRepository(ctx.params.id!);
    return { status: 204 };
  });

  add("GET", "/api/v1/tasks/:id/changes", async (ctx) => ({ status: 200, body: await workspaces.changes(ctx.params.id!) }));
  add("POST", "/api/v1/tasks/:id/merge", async (ctx) => {
    const body = MergeBodySchema.parse((await ctx.body()) ?? {});
    return { status: 200, body: await workspaces.merge(ctx.params.id!, body, requestUser(ctx.req).username) };
  });
  add("POST", "/api/v1/tasks/:id/push", async (ctx) => {
    const body = PushBodySchema.parse((await ctx.body()) ?? {});
    return { status: 200, body: await workspaces.push(ctx.params.id!, body) };
  });
  add("DELETE", "/api/v1/tasks/:id", async (ctx) => {
    await workspaces.deleteTask(ctx.params.id!);
    return { status: 204 };
  });
}

/** `POST /api/v1/tasks`, which makes the task's worktree first when the body names a repository. */
export function createTaskRoute(workspaces: WorkspaceService): Handler {
  return guarded(async (ctx) => {
    const body = CreateTaskBodySchema.parse(await ctx.body());
    return { status: 201, body: await workspaces.createTask(body, requestUser(ctx.req).username) };
  });
}
