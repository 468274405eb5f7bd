// The session's modes, config options, commands, usage and title: what the agent says (session/new,
// session/load, its state updates) is stored on the session's row and pushed as session.updated
// (and task.updated: the card shows usage); the operator's mode and option changes go to the agent
// first and are recorded once it answered. The rules are pure (domain/session-state.ts,
// domain/usage-writes.ts); this is their I/O shell.
import type {
  ConfigOptionsResult,
  ConfigValue,
  SessionConfigOption,
  SessionModes,
  Session,
  SessionStateUpdate,
  SessionUsage,
} from "@kandev/protocol";
import {
  applyOpened,
  applyStateUpdate,
  configProblem,
  modeName,
  modeProblem,
  type StatePatch,
  type StoredSessionState,
} from "../domain/session-state.js";
import { UsageWrites, type UsageClock } from "../domain/usage-writes.js";
import { conflict, notFound, validationError } from "../http/errors.js";
import * as sessionsRepo from "../repos/sessions.js";
import type { LiveStore } from "./store.js";

/** Who changes a setting on a board without sign-in (the routes pass the signed-in user). */
const LOCAL_USER = "local";

/** What a live session offers this service (LiveSession). */
export interface SettingsTarget {
  setMode(modeId: string): Promise<void>;
  setConfigOption(configId: string, value: ConfigValue): Promise<ConfigOptionsResult>;
  /** Adds a status message to the transcript (closing streamed text first). */
  noteStatus(content: string, metadata: Record<string, unknown>): void;
}

export interface SessionSettingsOptions {
  store: LiveStore;
  /** The live session able to take a change now (its ACP session open), or undefined. */
  target: (sessionId: string) => SettingsTarget | undefined;
  clock?: UsageClock;
}

const realClock: UsageClock = {
  now: () => performance.now(),
  schedule: (run, ms) => {
    const timer = setTimeout(run, ms);
    timer.unref();
    return { cancel: () => clearTimeout(timer) };
  },
};

function stored(row: sessionsRepo.SessionRow): StoredSessionState {
  return {
    modes: row.modes ?? null,
    configOptions: (row.configOptions as SessionConfigOption[] | null) ?? null,
    availableCommands: row.availableCommands,
    usage: row.usage ?? null,
    title: row.title ?? null,
  };
}

export class SessionSettings {
  private readonly usage: UsageWrites;
  /** Modes the operator asked for and the agent has not answered yet: their echo is not the agent's own switch. */
  private readonly asked = new Map<string, string>();

  constructor(private readonly options: SessionSettingsOptions) {
    this.usage = new UsageWrites(options.clock ?? realClock, (sessionId, usage) => this.writeUsage(sessionId, usage));
  }

  private get store() {
    return this.options.store;
  }

  /** `POST /sessions/:id/mode`: answered with the session once the agent switched. */
  async setMode(sessionId: string, modeId: string, user: string = LOCAL_USER): Promise<Session> {
    const row = this.row(sessionId);
    const problem = modeProblem(row.modes ?? null, modeId);
    if (problem !== null) throw validationError("unknown mode", [{ path: "mode_id", message: problem }]);
    const target = this.liveTarget(row);
    this.asked.set(sessionId, modeId);
    try {
      await target.setMode(modeId);
    } finally {
      if (this.asked.get(sessionId) === modeId) this.asked.delete(sessionId);
    }
    return this.store.atomically(() => {
      const now = this.row(sessionId);
      const modes: SessionModes = { current_mode_id: modeId, available_modes: now.modes?.available_modes ?? [] };
      const session = this.patch(now, { modes });
      target.noteStatus(`Mode: ${modeName(modes, modeId)}`, { mode_id: modeId, mode_name: modeName(modes, modeId), user });
      return session;
    });
  }

  /** `POST /sessions/:id/config-options`: the agent's full list once it answered. */
  async setConfigOption(sessionId: string, configId: string, value: ConfigValue, _user: string = LOCAL_USER): Promise<ConfigOptionsResult> {
    const row = this.row(sessionId);
    const problem = configProblem(stored(row).configOptions, configId, value);
    if (problem !== null) throw validationError("unknown config option or value", [problem]);
    const target = this.liveTarget(row);
    const result = await target.setConfigOption(configId, value);
    this.store.atomically(() => this.patch(this.row(sessionId), { configOptions: result.config_options }));
    return { config_options: result.config_options };
  }

  /** What session/new or session/load said; inside the caller's write. */
  onOpened(sessionId: string, opened: { modes?: SessionModes | null; config_options?: SessionConfigOption[] | null }, how: "new" | "load"): void {
    const row = sessionsRepo.getSession(this.store.db, sessionId);
    if (row !== undefined) this.patch(row, applyOpened(stored(row), opened, how));
  }

  /** One state update from the agent, inside the event's transaction. Usage is coalesced. */
  onUpdate(sessionId: string, update: SessionStateUpdate, target: Pick<SettingsTarget, "noteStatus">): void {
    if (update.kind === "usage_update") {
      this.usage.offer(sessionId, update.usage);
      return;
    }
    const row = sessionsRepo.getSession(this.store.db, sessionId);
    if (row === undefined) return;
    const change = applyStateUpdate(stored(row), update);
    this.patch(row, change.patch);
    const to = change.modeChanged?.to;
    // An echo of the operator's own request is recorded when the agent answers it (setMode).
    if (to !== undefined && this.asked.get(sessionId) !== to) {
      const name = modeName(change.patch.modes ?? null, to);
      target.noteStatus(`Mode: ${name}`, { mode_id: to, mode_name: name, by: "agent" });
    }
  }

  /** The turn ended: held usage is written now. */
  onTurnEnded(sessionId: string): void {
    this.usage.flush(sessionId);
  }

  /** The session's agent is gone: held usage is written, nothing more is held for it. */
  forget(sessionId: string): void {
    this.usage.forget(sessionId);
    this.asked.delete(sessionId);
  }

  private writeUsage(sessionId: string, usage: SessionUsage): void {
    this.store.write(`usage ${sessionId}`, () => {
      const row = sessionsRepo.getSession(this.store.db, sessionId);
      if (row !== undefined) this.patch(row, applyStateUpdate(stored(row), { kind: "usage_update", usage }).patch);
    });
  }

  /** Writes the patch and pushes the session (and its task); nothing when the patch is empty. */
  private patch(row: sessionsRepo.SessionRow, patch: StatePatch): Session {
    if (Object.keys(patch).length === 0) return this.store.toSessionView(row);
    return this.store.updateSession(row.id, patch);
  }

  private row(sessionId: string): sessionsRepo.SessionRow {
    const row = sessionsRepo.getSession(this.store.db, sessionId);
    if (row === undefined) throw notFound(`session ${sessionId}`);
    return row;
  }

  private liveTarget(row: sessionsRepo.SessionRow): SettingsTarget {
    const target = this.options.target(row.id);
    if (target === undefined) throw conflict(`the session's agent is not running (${row.state}); settings change while it is live`);
    return target;
  }
}
