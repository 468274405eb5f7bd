// The rows behind repositories and task workspaces. A task's workspace is a JSON column of its own
// row (the task owns it); repositories have a table.
import { asc, eq, sql } from "drizzle-orm";
import type { TaskWorkspace } from "@kandev/protocol";
import type { Db } from "../db/client.js";
import { repositories, tasks } from "../db/schema.js";
import { newId, nowIso } from "../repos/util.js";

export type RepositoryRow = typeof repositories.$inferSelect;

export function insertRepository(db: Db, input: { name: string; path: string; defaultBranch: string }): RepositoryRow {
  return db
    .insert(repositories)
    .values({ id: newId(), ...input, createdAt: nowIso() })
    .returning()
    .get();
}

export function getRepository(db: Db, id: string): RepositoryRow | undefined {
  return db.select().from(repositories).where(eq(repositories.id, id)).get();
}

export function findRepositoryByPath(db: Db, path: string): RepositoryRow | undefined {
  return db.select().from(repositories).where(eq(repositories.path, path)).get();
}

export function listRepositories(db: Db): RepositoryRow[] {
  return db.select().from(repositories).orderBy(asc(repositories.name), asc(repositories.createdAt)).all();
}

export function deleteRepository(db: Db, id: string): void {
  db.delete(repositories).where(eq(repositories.id, id)).run();
}

/** Tasks on a repository (every task on the board: a deleted task is gone from the table). */
export function tasksUsingRepository(db: Db, repositoryId: string): string[] {
  return db
    .select({ id: tasks.id })
    .from(tasks)
    .where(sql`json_extract(${tasks.workspace}, '$.repository_id') = ${repositoryId}`)
    .all()
    .map((r) => r.id);
}

export function setTaskWorkspace(db: Db, taskId: string, workspace: TaskWorkspace): void {
  db.update(tasks).set({ workspace, updatedAt: nowIso() }).where(eq(tasks.id, taskId)).run();
}

export function getTaskWorkspace(db: Db, taskId: string): { title: string; workspace: TaskWorkspace | null } | undefined {
  const row = db.select({ title: tasks.title, workspace: tasks.workspace }).from(tasks).where(eq(tasks.id, taskId)).get();
  return row === undefined ? undefined : { title: row.title, workspace: row.workspace ?? null };
}

export function listTaskWorkspaces(db: Db): Array<{ taskId: string; workspace: TaskWorkspace }> {
  return db
    .select({ id: tasks.id, workspace: tasks.workspace })
    .from(tasks)
    .where(sql`${tasks.workspace} IS NOT NULL`)
    .all()
    .flatMap((r) => (r.workspace === null ? [] : [{ taskId: r.id, workspace: r.workspace }]));
}

/** Removes the task and, by cascade, its sessions, turns, messages and clarifications. */
export function deleteTaskRow(db: Db, taskId: string): void {
  db.delete(tasks).where(eq(tasks.id, taskId)).run();
}
