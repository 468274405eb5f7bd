import { asc, eq } from "drizzle-orm";
import type { Db } from "../db/client.js";
import { agentProfiles } from "../db/schema.js";
import { nowIso } from "./util.js";

export type ProfileRow = typeof agentProfiles.$inferSelect;

export function listProfiles(db: Db): ProfileRow[] {
  return db.select().from(agentProfiles).orderBy(asc(agentProfiles.createdAt), asc(agentProfiles.id)).all();
}

export function getProfile(db: Db, id: string): ProfileRow | undefined {
  return db.select().from(agentProfiles).where(eq(agentProfiles.id, id)).get();
}

/** Inserts a profile; returns undefined when the id is taken (the caller answers 409). */
export function insertProfile(
  db: Db,
  input: { id: string; name: string; command: string[]; env?: Record<string, string>; cwd?: string; agentId?: string; builtin?: boolean },
): ProfileRow | undefined {
  return db
    .insert(agentProfiles)
    .values({
      id: input.id,
      name: input.name,
      command: input.command,
      env: input.env ?? null,
      cwd: input.cwd ?? null,
      agentId: input.agentId ?? null,
      builtin: input.builtin ?? false,
      createdAt: nowIso(),
    })
    .onConflictDoNothing()
    .returning()
    .get();
}

/**
 * Writes a built-in profile, replacing its command on every start: the command embeds this machine's
 * node and package paths, which change when the checkout moves.
 */
export function upsertBuiltinProfile(db: Db, input: { id: string; name: string; command: string[]; env?: Record<string, string> }): ProfileRow {
  return db
    .insert(agentProfiles)
    .values({ id: input.id, name: input.name, command: input.command, env: input.env ?? null, builtin: true, createdAt: nowIso() })
    .onConflictDoUpdate({
      target: agentProfiles.id,
      set: { name: input.name, command: input.command, env: input.env ?? null, builtin: true },
    })
    .returning()
    .get();
}

/** Writes the given fields of a profile; undefined for an unknown id. */
export function updateProfile(db: Db, id: string, patch: Partial<Pick<ProfileRow, "name" | "command" | "env" | "cwd">>): ProfileRow | undefined {
  return db.update(agentProfiles).set(patch).where(eq(agentProfiles.id, id)).returning().get();
}

export function deleteProfile(db: Db, id: string): boolean {
  return db.delete(agentProfiles).where(eq(agentProfiles.id, id)).run().changes > 0;
}
