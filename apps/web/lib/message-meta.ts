import type { Message } from "@kandev/protocol";

// Readers for the loosely typed `Message.metadata`. The backend owns its shape; these read what
// the UI needs defensively, so an unexpected value degrades to "unknown", never to a crash.

function str(meta: Record<string, unknown>, key: string): string | null {
  const v = meta[key];
  return typeof v === "string" && v.length > 0 ? v : null;
}

/** A tool call's status as shown on its row. */
export type ToolStatus = "pending" | "in_progress" | "completed" | "failed" | "unknown";

export function toolCallStatus(message: Message): ToolStatus {
  const status = str(message.metadata, "status");
  switch (status) {
    case "pending":
    case "in_progress":
    case "completed":
    case "failed":
      return status;
    default:
      return status === null ? "pending" : "unknown";
  }
}

/** The raw status string (for statuses this UI does not know by name). */
export function rawToolStatus(message: Message): string {
  return str(message.metadata, "status") ?? "";
}

/**
 * The headline of an error message: the backend's short `reason` when it gives one (its `content`
 * then repeats the stderr tail, which is shown separately), else the content itself.
 */
export function errorHeadline(message: Message): string {
  return str(message.metadata, "reason") ?? message.content;
}

/** The last lines of the agent's stderr carried by an error message, if any. */
export function stderrTail(message: Message): string | null {
  return str(message.metadata, "stderr_tail");
}

export interface PermissionOptionView {
  optionId: string;
  name: string;
  kind: string;
}

export interface PermissionView {
  pendingId: string | null;
  options: PermissionOptionView[];
  /** "pending" until settled; then what happened. */
  status: "pending" | "selected" | "cancelled";
  chosenOptionId: string | null;
}

/** What a permission_request message offers and whether it is settled. */
export function permissionView(message: Message): PermissionView {
  const meta = message.metadata;
  const rawOptions = Array.isArray(meta.options) ? meta.options : [];
  const options = rawOptions.flatMap((o: unknown): PermissionOptionView[] => {
    if (typeof o !== "object" || o === null) return [];
    const { option_id, name, kind } = o as Record<string, unknown>;
    if (typeof option_id !== "string") return [];
    return [{ optionId: option_id, name: typeof name === "string" ? name : option_id, kind: typeof kind === "string" ? kind : "" }];
  });
  const rawStatus = str(meta, "status") ?? str(meta, "outcome");
  const chosenOptionId = str(meta, "option_id");
  const status =
    rawStatus === "cancelled"
      ? "cancelled"
      : rawStatus === "selected" || rawStatus === "answered" || chosenOptionId !== null
        ? "selected"
        : "pending";
  return { pendingId: str(meta, "pending_id"), options, status, chosenOptionId };
}
