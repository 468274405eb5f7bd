// What a role may do in the web app (issue 34, item 2). The board enforces the same rules with
// `403 FORBIDDEN`; hiding here only spares an operator controls that would be refused.
import type { Role } from "@kandev/protocol";

/** Everything the web app shows only to some roles. */
export type AuthAction =
  | "manage_agent_profiles"
  | "manage_repositories"
  | "manage_runtime_flags"
  | "manage_users"
  | "manage_others_tokens"
  | "manage_own_tokens"
  | "work_on_tasks";

export const AUTH_ACTIONS: readonly AuthAction[] = [
  "manage_agent_profiles",
  "manage_repositories",
  "manage_runtime_flags",
  "manage_users",
  "manage_others_tokens",
  "manage_own_tokens",
  "work_on_tasks",
];

/** Whether `action` decides what runs on the board's host (admins only). */
function decidesWhatRuns(action: AuthAction): boolean {
  switch (action) {
    case "manage_agent_profiles":
    case "manage_repositories":
    case "manage_runtime_flags":
    case "manage_users":
    case "manage_others_tokens":
      return true;
    case "manage_own_tokens":
    case "work_on_tasks":
      return false;
    default: {
      const unreachable: never = action;
      throw new Error(`unknown action ${String(unreachable)}`);
    }
  }
}

/** Whether a signed-in user of `role` may do `action`. */
export function can(role: Role, action: AuthAction): boolean {
  switch (role) {
    case "admin":
      return true;
    case "operator":
      return !decidesWhatRuns(action);
    default: {
      const unreachable: never = role;
      throw new Error(`unknown role ${String(unreachable)}`);
    }
  }
}
