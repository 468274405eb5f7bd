"use client";

/**
 * Where the clarification answer overlay mounts (a later issue): directly above the prompt box,
 * so a question from the agent sits where the operator would type. It receives the task and its
 * current session; the overlay reads pending clarifications itself. Renders nothing for now.
 */
export function ClarificationSlot(_props: { taskId: string; sessionId: string | null }) {
  return null;
}
