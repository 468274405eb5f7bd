import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { buildRouter, type RouteDeps } from "../http/routes.js";
import { ROUTE_ACCESS, mayAccess, routeAccess } from "./roles.js";

// Handlers are closures over their dependencies, so the routes register without any of them.
const routes = buildRouter({ store: {} } as unknown as RouteDeps).list();

describe("roles: one access rule per route", () => {
  test("every registered route has a row, and every row a route", () => {
    const missing = routes.filter((r) => !(r in ROUTE_ACCESS));
    assert.deepEqual(missing, [], "add these routes to auth/roles.ts ROUTE_ACCESS");
    const stale = Object.keys(ROUTE_ACCESS).filter((r) => !routes.includes(r));
    assert.deepEqual(stale, [], "these rows name no route");
  });

  test("only health, setup and login are public", () => {
    const open = Object.entries(ROUTE_ACCESS)
      .filter(([, a]) => a === "public")
      .map(([r]) => r)
      .sort();
    assert.deepEqual(open, ["GET /api/v1/health", "POST /api/v1/auth/login", "POST /api/v1/auth/setup"]);
  });

  test("what decides what runs on the host, and who signs in, is admin-only", () => {
    for (const r of routes) {
      const writes = !r.startsWith("GET ");
      if (/\/(agent-profiles|repositories|runtime-flags|users)\b/.test(r) && writes) assert.equal(ROUTE_ACCESS[r], "admin", r);
    }
    assert.equal(ROUTE_ACCESS["GET /api/v1/users"], "admin");
  });

  test("operators run the work: tasks, prompts, answers, permissions, merges", () => {
    for (const r of [
      "POST /api/v1/tasks",
      "PATCH /api/v1/tasks/:id",
      "DELETE /api/v1/tasks/:id",
      "POST /api/v1/sessions/:id/prompt",
      "POST /api/v1/sessions/:id/cancel",
      "POST /api/v1/clarifications/:pendingId/respond",
      "POST /api/v1/sessions/:id/permissions/:pendingId/respond",
      "POST /api/v1/tasks/:id/merge",
      "GET /api/v1/agent-profiles",
    ])
      assert.equal(ROUTE_ACCESS[r], "operator", r);
  });

  test("a route without a row is admin-only; ranks compare", () => {
    assert.equal(routeAccess("POST", "/api/v1/not-yet-listed"), "admin");
    assert.equal(routeAccess("get", "/api/v1/tasks"), "operator");
    assert.equal(mayAccess("operator", "admin"), false);
    assert.equal(mayAccess("operator", "operator"), true);
    assert.equal(mayAccess("admin", "operator"), true);
    assert.equal(mayAccess("operator", "public"), true);
  });
});
