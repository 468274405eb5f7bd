import { randomUUID } from "node:crypto";
import { CreateAgentProfileBodySchema, CreateProfileFromPresetBodySchema } from "@kandev/protocol";
import { buildPresets, findPreset, type PresetContext } from "../agents/presets.js";
import type { Db } from "../db/client.js";
import type { SessionLogs } from "../lifecycle/session-logs.js";
import * as profilesRepo from "../repos/profiles.js";
import * as sessionsRepo from "../repos/sessions.js";
import { toProfile } from "../views.js";
import { conflict, notFound, validationError } from "./errors.js";
import type { Router } from "./router.js";

export interface AgentRouteDeps {
  db: Db;
  logs: SessionLogs;
  /** Resolves preset availability now (PATH and local installs may change while the board runs). */
  presetContext: () => PresetContext;
}

/** Agent profiles, the preset catalog, and a session's agent log (docs/API.md). */
export function addAgentRoutes(router: Router, { db, logs, presetContext }: AgentRouteDeps): void {
  router.add("GET", "/api/v1/agent-profiles", () => ({ status: 200, body: profilesRepo.listProfiles(db).map(toProfile) }));
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
    return { status: 201, body: toProfile(row) };
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
    return { status: 201, body: toProfile(row) };
  });

  router.add("GET", "/api/v1/sessions/:id/logs", (ctx) => {
    if (sessionsRepo.getSession(db, ctx.params.id!) === undefined) throw notFound(`session ${ctx.params.id}`);
    return { status: 200, body: { lines: logs.list(ctx.params.id!) } };
  });
}
