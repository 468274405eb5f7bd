import type { Task } from "@kandev/protocol";
import { isStorageUnavailable } from "../db/errors.js";
import type { Logger } from "../logger.js";

/** A question just stored and pushed, whose task and notification come next. */
export interface FollowUp {
  pendingId: string;
  sessionId: string;
  taskId: string;
  /** Set by `settled`: the question ended before its notification went out. */
  settled?: boolean;
}

export interface FollowUpsOptions {
  /** Recomputes these tasks' state in one transaction and returns them; throws what the database throws. */
  recompute: (taskIds: string[]) => Task[];
  /** Pushes a recomputed task. */
  announce: (task: Task) => void;
  /**
   * Sends the question's notification; not called for one that settled meanwhile (`settled`).
   * `task` is its task as just recomputed, or undefined when the recompute failed.
   */
  notify: (followUp: FollowUp, task: Task | undefined) => void;
  logger: Logger;
  /** Runs `fn` once the pushes of this turn of the event loop have left (default: setImmediate). */
  defer?: (fn: () => void) => void;
  /** How long to wait before trying again a recompute the database refused (default 250 ms). */
  retryMs?: number;
}

/**
 * What follows a new question once its message is on its way to the operator: the task's pending
 * action (the waiting-for-input icon), recomputed in a transaction of its own and pushed, then the
 * notification. A settled question's task is recomputed the same way (`task`). Done on the next
 * turn of the event loop (setImmediate), so neither holds a push: the browser hub writes a
 * message's frame as soon as the handler that stored it sends it (ws/hub.ts), and a question's or
 * a settle's own write is only its record and message (see INVARIANTS.md). All the tasks of one
 * turn share one recompute.
 *
 * A recompute the database refuses (locked, full) is tried again until it is written: the task's
 * icon is derived state, recomputed from the records, so a later try loses nothing. The
 * notification does not wait for it. In memory only: after a crash in between, the restart
 * recomputes the task anyway, as it settles every pending record and reconciles every session
 * that was live (lifecycle/session-manager.ts), each of which recomputes its task.
 */
export class FollowUps {
  private readonly queue: FollowUp[] = [];
  /** Tasks to recompute whose question settled (no notification). */
  private readonly tasks = new Set<string>();
  /** Tasks whose recompute the database refused, tried again on the timer. */
  private readonly stale = new Set<string>();
  private scheduled = false;
  private timer: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(private readonly options: FollowUpsOptions) {}

  /** How many questions, settled questions' tasks and refused tasks wait. */
  get size(): number {
    return this.queue.length + this.tasks.size + this.stale.size;
  }

  /** Queues a question's follow-up for the next turn; after `close` (shutdown) there is none. */
  add(followUp: FollowUp): void {
    if (this.closed) return;
    this.queue.push(followUp);
    this.schedule();
  }

  /** Queues the recompute of a task whose question settled, for the next turn. */
  task(taskId: string): void {
    if (this.closed) return;
    this.tasks.add(taskId);
    this.schedule();
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    (this.options.defer ?? setImmediate)(() => {
      this.scheduled = false;
      if (!this.closed) this.flush();
    });
  }

  /**
   * The question settled (answered, withdrawn) before its follow-up ran: its task is still
   * recomputed, but no notification asks the operator about it.
   */
  settled(pendingId: string): void {
    const i = this.queue.findIndex((f) => f.pendingId === pendingId);
    if (i >= 0) this.queue[i] = { ...this.queue[i]!, settled: true };
  }

  /** Runs whatever waits now: the recompute of every waiting task, its push, then the notifications. */
  flush(): void {
    const due = this.queue.splice(0);
    const taskIds = new Set([...this.stale, ...this.tasks, ...due.map((f) => f.taskId)]);
    this.tasks.clear();
    const tasks = taskIds.size > 0 ? this.recompute([...taskIds]) : [];
    for (const followUp of due) {
      if (followUp.settled === true) continue;
      try {
        this.options.notify(followUp, tasks.find((t) => t.id === followUp.taskId));
      } catch (err) {
        this.options.logger.error("could not send a new question's notification", { pending_id: followUp.pendingId, error: errorText(err) });
      }
    }
  }

  /** Shutdown: one last try, then nothing more is scheduled; what still cannot be written is logged. */
  close(): void {
    this.flush();
    this.closed = true;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    if (this.stale.size > 0) this.options.logger.error("tasks whose state could not be recomputed", { task_ids: [...this.stale] });
  }

  private recompute(taskIds: string[]): Task[] {
    let tasks: Task[];
    try {
      tasks = this.options.recompute(taskIds);
    } catch (err) {
      if (!isStorageUnavailable(err)) {
        // Not the database's state but a bug: retrying would fail the same way. Said, not thrown:
        // this runs on its own turn of the event loop, where a throw would end the board.
        this.options.logger.error("BUG: could not recompute the tasks of changed clarifications", { task_ids: taskIds, error: errorText(err) });
        this.stale.clear();
        return [];
      }
      if (this.stale.size === 0) {
        this.options.logger.error("could not update the state of the tasks of changed clarifications; will retry", { task_ids: taskIds, error: errorText(err) });
      }
      for (const id of taskIds) this.stale.add(id);
      this.retryLater();
      return [];
    }
    this.stale.clear();
    for (const task of tasks) this.options.announce(task);
    return tasks;
  }

  private retryLater(): void {
    if (this.timer !== null || this.closed) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      if (!this.closed) this.flush();
    }, this.options.retryMs ?? 250);
    this.timer.unref();
  }
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
