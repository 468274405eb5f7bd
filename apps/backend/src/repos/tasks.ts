import { desc, eq, sql } from "drizzle-orm";
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

/** Newest first, optionally only one state. */
export function listTasks(db: Db, filter: { state?: TaskState } = {}): TaskRow[] {
  const q = db.select().from(tasks);
  const rows = filter.state !== undefined ? q.where(eq(tasks.state, filter.state)) : q;
  return rows.orderBy(desc(tasks.createdAt), desc(sql`${tasks}.rowid`)).all() as TaskRow[];
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
