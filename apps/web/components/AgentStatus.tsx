"use client";
import type { Session } from "@kandev/protocol";
import { useTranslation } from "react-i18next";
import { sayNested } from "../lib/say";
import { interruptionWords } from "../lib/session-words";

/** Whether the session's agent runs, waits or is closed, and why a closed one that can resume was closed. */
export function AgentStatus({ session }: { session: Session }) {
  const { t } = useTranslation();
  const why = interruptionWords(session.interruption);
  return (
    <span className="agent-status">
      <span className={`pill pill--agent-${session.agent_status}`} data-testid="agent-status" data-status={session.agent_status}>
        {t(`task.agentStatus.${session.agent_status}`)}
      </span>
      {why !== null ? (
        <span className="agent-status__why muted" data-testid="session-interruption" data-code={session.interruption}>
          {sayNested(t, why)}
        </span>
      ) : null}
    </span>
  );
}
