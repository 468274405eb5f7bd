import { z } from "zod";

export const TaskStateSchema = z.enum(["TODO", "IN_PROGRESS", "WAITING_FOR_INPUT", "REVIEW", "COMPLETED", "FAILED", "CANCELLED"]);
export type TaskState = z.infer<typeof TaskStateSchema>;

export const SessionStateSchema = z.enum(["CREATED", "STARTING", "RUNNING", "WAITING_FOR_INPUT", "COMPLETED", "FAILED", "CANCELLED"]);
export type SessionState = z.infer<typeof SessionStateSchema>;

/** What a task waits for from a human, over its session's current turn (DECISIONS A4). */
export const PendingActionSchema = z.enum(["clarification", "permission"]).nullable();
export type PendingAction = z.infer<typeof PendingActionSchema>;
