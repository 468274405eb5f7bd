import { randomUUID } from "node:crypto";
import { CreateAgentProfileBodySchema, CreateProfileFromPresetBodySchema, PatchAgentProfileBodySchema, SECRET_MASK } from "@kandev/protocol";
import { profileProblems, type ProfileCheckContext } from "../agents/profile-check.js";
import { buildPresets, findPreset, type PresetContext } from "../agents/presets.js";
import type { Db } from "../db/client.js";
import type { SessionLogs } from "../lifecycle/session-logs.js";
import * as profilesRepo from "../repos/profiles.js";
import * as sessionsRepo from "../repos/sessions.js";
import { toProfile } from "../views.js";
import { HttpError, conflict, notFound, validationError } from "./errors.js";
import type { Router } from "./router.js";

export interface AgentRouteDeps {
  db: Db;
  logs: SessionLogs;
  /** Resolves preset availability now (PATH and local installs may change while the board runs). */
  presetContext: () => PresetContext;
  /** How a profile's command and working directory are checked right now (PATH and folders change). */
  profileCheck: () => ProfileCheckContext;
}

/** Agent profiles, the preset catalog, and a session's agent log (docs/API.md). */
export function addAgentRoutes(router: Router, { db, logs, presetContext, profileCheck }: AgentRouteDeps): void {
  const view = (row: profilesRepo.ProfileRow) => toProfile(row, profileProblems(row, profileCheck()));
  router.add("GET", "/api/v1/agent-profiles", () => ({ status: 200, body: profilesRepo.listProfiles(db).map(view) }));
  router.add("POST", "/api/v1/agent-profiles", async (ctx) => {
    const body = CreateAgentProfileBodySchema.parse(await ctx.body());
    const row = profilesRepo.insertProfile(db, {
      id: body.id ?? randomUUID(),
      name: body.name,
      command: body.command,
      ...(body.env !== undefined && { env: body.env }),
      ...(body.cwd !== undefined && { cwd: body.cwd }),
      ...(body.agent_id !== undefined && { agentId: body.agent_id }),
    });
    if (row === undefined) throw conflict(`agent profile ${body.id} already exists`);
    return { status: 201, body: view(row) };
  });

  router.add("PATCH", "/api/v1/agent-profiles/:id", async (ctx) => {
    const body = PatchAgentProfileBodySchema.parse(await ctx.body());
    const row = editableProfile(db, ctx.params.id!, "edited");
    const env = body.env === undefined ? undefined : mergeEnv(row.env, body.env);
    const updated = profilesRepo.updateProfile(db, row.id, {
      ...(body.name !== undefined && { name: body.name }),
      ...(body.command !== undefined && { command: body.command }),
      ...(env !== undefined && { env }),
      ...(body.cwd !== undefined && { cwd: body.cwd === null || body.cwd.trim() === "" ? null : body.cwd }),
    });
    if (updated === undefined) throw notFound(`agent profile ${row.id}`);
    return { status: 200, body: view(updated) };
  });
  router.add("DELETE", "/api/v1/agent-profiles/:id", (ctx) => {
    const row = editableProfile(db, ctx.params.id!, "removed");
    const live = sessionsRepo.listLiveSessionsOfProfile(db, row.id);
    if (live.length > 0) {
      const taskIds = [...new Set(live.map((s) => s.taskId))];
      throw new HttpError(
        409,
        "CONFLICT",
        `agent profile ${row.id} is used by ${taskIds.length} task(s) whose session is live; finish or delete them first`,
        {
          reason: "in_use",
          task_ids: taskIds,
        },
      );
    }
    profilesRepo.deleteProfile(db, row.id);
    return { status: 204 };
  });

  router.add("GET", "/api/v1/agent-presets", () => ({ status: 200, body: buildPresets(presetContext()) }));
  router.add("POST", "/api/v1/agent-profiles/from-preset", async (ctx) => {
    const body = CreateProfileFromPresetBodySchema.parse(await ctx.body());
    const preset = findPreset(body.preset_id, presetContext());
    if (preset === undefined) {
      throw validationError("unknown agent preset", [{ path: "preset_id", message: `no agent preset ${body.preset_id}` }]);
    }
    // The command is resolved now (a local install becomes its absolute path), so the profile
    // keeps working whatever the board's working directory is later.
    const row = profilesRepo.insertProfile(db, {
      id: body.id ?? randomUUID(),
      name: body.name ?? preset.name,
      command: preset.command,
      agentId: preset.agent_id,
      ...(body.env !== undefined && { env: body.env }),
      ...(body.cwd !== undefined && { cwd: body.cwd }),
    });
    if (row === undefined) throw conflict(`agent profile ${body.id} already exists`);
    return { status: 201, body: view(row) };
  });

  router.add("GET", "/api/v1/sessions/:id/logs", (ctx) => {
    if (sessionsRepo.getSession(db, ctx.params.id!) === undefined) throw notFound(`session ${ctx.params.id}`);
    return { status: 200, body: { lines: logs.list(ctx.params.id!) } };
  });
}

/** A profile the operator may change: it exists and is not built in (the board rewrites those at every start). */
function editableProfile(db: Db, id: string, verb: "edited" | "removed"): profilesRepo.ProfileRow {
  const row = profilesRepo.getProfile(db, id);
  if (row === undefined) throw notFound(`agent profile ${id}`);
  if (row.builtin) throw new HttpError(409, "CONFLICT", `agent profile ${id} is built in and cannot be ${verb}`, { reason: "builtin" });
  return row;
}

/**
 * `env` merged key by key: a string sets, null removes, a key left out keeps its value, and the
 * mask the API shows (SECRET_MASK) keeps it too, so a form that sends back what it read changes
 * nothing. Null when empty.
 */
export function mergeEnv(current: Record<string, string> | null, patch: Record<string, string | null>): Record<string, string> | null {
  const next: Record<string, string> = { ...(current ?? {}) };
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete next[key];
    else if (value === SECRET_MASK) {
      if (!(key in next))
        throw validationError(`env.${key} has no value to keep`, [
          { path: `env.${key}`, message: "give a value; the mask keeps an existing one only" },
        ]);
    } else next[key] = value;
  }
  return Object.keys(next).length > 0 ? next : null;
}
