/** Every react-query key the app uses, in one place, so the WS client and the hooks agree. */
export const queryKeys = {
  tasks: () => ["tasks"] as const,
  /** Not under "tasks": invalidating the board must not refetch the archive, nor the reverse. */
  archivedTasks: () => ["archived-tasks"] as const,
  task: (id: string) => ["task", id] as const,
  session: (id: string) => ["session", id] as const,
  /** Keyed by the latest session too, so a Start again (a new latest session) refetches the list. */
  taskSessions: (taskId: string, latestId: string) => ["task-sessions", taskId, latestId] as const,
  messages: (sessionId: string) => ["messages", sessionId] as const,
  sessionPlan: (sessionId: string) => ["session-plan", sessionId] as const,
  sessionLogs: (sessionId: string) => ["session-logs", sessionId] as const,
  agentProfiles: () => ["agent-profiles"] as const,
  agentPresets: () => ["agent-presets"] as const,
  runtimeFlags: () => ["runtime-flags"] as const,
  notificationSettings: () => ["notification-settings"] as const,
  repositories: () => ["repositories"] as const,
  branches: (repositoryId: string) => ["branches", repositoryId] as const,
  changes: (taskId: string) => ["changes", taskId] as const,
  health: () => ["health"] as const,
  me: () => ["auth-me"] as const,
  users: () => ["users"] as const,
  tokens: () => ["tokens"] as const,
};
