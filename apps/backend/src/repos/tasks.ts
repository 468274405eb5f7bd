import { and, desc, eq, getTableColumns, isNotNull, isNull, lt, or, sql, type SQL } from "drizzle-orm";
import type { PendingAction, TaskState } from "@kandev/protocol";
import type { Db } from "../db/client.js";
import { tasks } from "../db/schema.js";
import { newId, nowIso, prepared, setPlaceholder } from "./util.js";

export type TaskRow = Omit<typeof tasks.$inferSelect, "state" | "pendingAction"> & {
  state: TaskState;
  pendingAction: PendingAction;
};

export function insertTask(db: Db, input: { title: string; agentProfileId: string; id?: string; workspace?: TaskRow["workspace"] }): TaskRow {
  const at = nowIso();
  return db
    .insert(tasks)
    .values({
      id: input.id ?? newId(),
      title: input.title,
      state: "TODO",
      pendingAction: null,
      agentProfileId: input.agentProfileId,
      workspace: input.workspace ?? null,
      createdAt: at,
      updatedAt: at,
    })
    .returning()
    .get() as TaskRow;
}

export function getTask(db: Db, id: string): TaskRow | undefined {
  const select = prepared(db, "tasks.get", (d) =>
    d
      .select()
      .from(tasks)
      .where(eq(tasks.id, sql.placeholder("id")))
      .prepare(),
  );
  return select.get({ id }) as TaskRow | undefined;
}

/** A task row with its insertion order, the tie-break of the board's order (and of its cursor). */
export type TaskRowWithOrder = TaskRow & { rowid: number };

const taskRowid = sql<number>`${tasks}.rowid`;

/**
 * Newest first, optionally only one state; the tasks on the board, or with `archived` only the
 * archived ones. With `limit`, at most that many rows after `before` (the `[created_at, rowid]` of
 * the last row of the previous page), read through tasks_created_idx.
 */
export function listTasks(
  db: Db,
  filter: { state?: TaskState; archived?: boolean; limit?: number; before?: readonly [string, number] } = {},
): TaskRowWithOrder[] {
  const conditions: SQL[] = [filter.archived === true ? isNotNull(tasks.archivedAt) : isNull(tasks.archivedAt)];
  if (filter.state !== undefined) conditions.push(eq(tasks.state, filter.state));
  if (filter.before !== undefined) {
    const [at, rowid] = filter.before;
    conditions.push(or(lt(tasks.createdAt, at), and(eq(tasks.createdAt, at), lt(taskRowid, rowid)))!);
  }
  const q = db
    .select({ ...getTableColumns(tasks), rowid: taskRowid })
    .from(tasks)
    .where(and(...conditions))
    .orderBy(desc(tasks.createdAt), desc(taskRowid));
  return (filter.limit !== undefined ? q.limit(filter.limit).all() : q.all()) as TaskRowWithOrder[];
}

/** Renames and/or archives (a time) or restores (null) a task; undefined for an unknown id. */
export function updateTaskFields(db: Db, id: string, patch: { title?: string; archivedAt?: string | null }): TaskRow | undefined {
  return db
    .update(tasks)
    .set({ ...patch, updatedAt: nowIso() })
    .where(eq(tasks.id, id))
    .returning()
    .get() as TaskRow | undefined;
}

/** Writes state and pending action; returns the row, or undefined for an unknown id. */
export function updateTaskState(db: Db, id: string, state: TaskState, pendingAction: PendingAction): TaskRow | undefined {
  const update = prepared(db, "tasks.state", (d) =>
    d
      .update(tasks)
      .set({
        state: setPlaceholder<TaskState>("state"),
        pendingAction: setPlaceholder<PendingAction>("pendingAction"),
        updatedAt: setPlaceholder<string>("at"),
      })
      .where(eq(tasks.id, sql.placeholder("id")))
      .returning()
      .prepare(),
  );
  return update.get({ id, state, pendingAction, at: nowIso() }) as TaskRow | undefined;
}
