import { randomUUID } from "node:crypto";

/** Timestamps are written by the application so every row of one event shares the same clock. */
export const nowIso = (): string => new Date().toISOString();
export const newId = (): string => randomUUID();
