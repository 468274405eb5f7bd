"use client";
import type { Session } from "@kandev/protocol";
import { useTranslation } from "react-i18next";
import { sayNested } from "../lib/say";
import { interruptionWords } from "../lib/session-words";

/** Whether the session's agent runs, waits or is closed. */
export function AgentStatus({ session }: { session: Session }) {
  const { t } = useTranslation();
  return (
    <span className={`pill pill--agent-${session.agent_status}`} data-testid="agent-status" data-status={session.agent_status}>
      {t(`task.agentStatus.${session.agent_status}`)}
    </span>
  );
}

/** Why a closed session that can resume was closed (its interruption code, said in the operator's language). */
export function SessionInterruption({ session }: { session: Session }) {
  const { t } = useTranslation();
  const why = interruptionWords(session.interruption);
  if (why === null) return null;
  return (
    <span data-testid="session-interruption" data-code={session.interruption}>
      {sayNested(t, why)}
    </span>
  );
}
