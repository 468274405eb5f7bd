// PATCH /api/v1/tasks/:id: rename, move between the board's columns, archive or restore. The rules
// are domain/task-moves.ts; this shell checks them all first, so a refused patch changes nothing.
import type { PatchTaskBody, Task } from "@kandev/protocol";
import { archiveRefusal, decideMove } from "../domain/task-moves.js";
import { HttpError, notFound } from "../http/errors.js";
import * as tasksRepo from "../repos/tasks.js";
import { nowIso } from "../repos/util.js";
import type { LiveStore } from "./store.js";

/** What a move needs from the session layer (session-manager.ts). */
export interface TaskMoveControl {
  completeTask(taskId: string): Promise<void>;
  reopenTask(taskId: string): void;
}

export async function patchTask(store: LiveStore, sessions: TaskMoveControl, taskId: string, body: PatchTaskBody): Promise<Task> {
  const task = store.taskView(taskId);
  if (task === undefined) throw notFound(`task ${taskId}`);
  const move = body.state === undefined ? ({ kind: "stay" } as const) : decideMove(task.state, body.state, task.turn_active);
  if (move.kind === "refused") {
    if (move.status === 400)
      throw new HttpError(400, "VALIDATION_ERROR", move.message, [{ path: "state", message: move.message, code: move.reason }]);
    throw new HttpError(409, "CONFLICT", move.message, { reason: move.reason, from: task.state, to: body.state });
  }
  if (body.archived === true && !task.archived) {
    const why = archiveRefusal(task.turn_active);
    if (why !== null) throw new HttpError(409, "CONFLICT", why, { reason: "turn_running" });
  }
  const fields: { title?: string; archivedAt?: string | null } = {};
  if (body.title !== undefined && body.title !== task.title) fields.title = body.title;
  if (body.archived !== undefined && body.archived !== task.archived) fields.archivedAt = body.archived ? nowIso() : null;
  if (Object.keys(fields).length > 0) {
    store.atomically(() => {
      tasksRepo.updateTaskFields(store.db, taskId, fields);
      store.recomputeTask(taskId);
    });
  }
  if (move.kind === "complete") await sessions.completeTask(taskId);
  if (move.kind === "reopen") sessions.reopenTask(taskId);
  const now = store.taskView(taskId);
  if (now === undefined) throw notFound(`task ${taskId}`);
  return now;
}
