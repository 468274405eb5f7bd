import type { Message, Session, Task } from "@kandev/protocol";

// Builders for unit tests: valid wire objects with overridable fields.

export function makeTask(over: Partial<Task> = {}): Task {
  return {
    id: "t1",
    title: "A task",
    state: "IN_PROGRESS",
    pending_action: null,
    agent_profile_id: "mock",
    session_id: "s1",
    session_state: "RUNNING",
    turn_active: true,
    workspace: null,
    archived: false,
    session_usage: null,
    session_title: null,
    created_at: "2026-01-01T00:00:00.000Z",
    updated_at: "2026-01-01T00:00:00.000Z",
    ...over,
  };
}

export function makeSession(over: Partial<Session> = {}): Session {
  return {
    id: "s1",
    task_id: "t1",
    agent_profile_id: "mock",
    state: "RUNNING",
    acp_session_id: "acp-1",
    current_turn_id: "turn-1",
    error: null,
    agent_status: "running",
    ended: false,
    interruption: null,
    queued_prompts: [],
    modes: null,
    config_options: null,
    available_commands: [],
    usage: null,
    title: null,
    created_at: "2026-01-01T00:00:00.000Z",
    updated_at: "2026-01-01T00:00:00.000Z",
    ...over,
  };
}

export function makeMessage(over: Partial<Message> = {}): Message {
  return {
    id: "m1",
    session_id: "s1",
    task_id: "t1",
    turn_id: "turn-1",
    author_type: "agent",
    type: "text",
    content: "hello",
    requests_input: false,
    metadata: {},
    created_at: "2026-01-01T00:00:01.000Z",
    ...over,
  };
}
