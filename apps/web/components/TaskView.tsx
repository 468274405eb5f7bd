"use client";
import { useCallback, useMemo, useState } from "react";
import Link from "next/link";
import { useTranslation } from "react-i18next";
import { ApiRequestError } from "../lib/api";
import { useAgentProfiles, useMessages, useSession, useTask } from "../lib/queries";
import { taskStateIcon } from "../lib/task-state-icon";
import { useDocumentTitle } from "../lib/use-document-title";
import { AgentLogPanel } from "./AgentLogPanel";
import { CancelTurnButton } from "./CancelTurnButton";
import { CloseSessionButton } from "./CloseSessionButton";
import { DeleteTaskButton } from "./DeleteTaskButton";
import { EarlierSessions } from "./EarlierSessions";
import { ChangesPanel } from "./changes/ChangesPanel";
import { WorkspaceActions } from "./changes/WorkspaceActions";
import { ClarificationSlot } from "./ClarificationSlot";
import { SessionPlan } from "./SessionPlan";
import { ChangesLinkContext, type ChangesLink } from "./tool-call/ChangesLink";
import { useLiveSubscription } from "./LiveProvider";
import { MessageList } from "./MessageList";
import { PromptBox } from "./PromptBox";
import { QueuedPrompts } from "./QueuedPrompts";
import { TaskBoardActions } from "./TaskBoardActions";
import { RestartTaskButton } from "./RestartTaskButton";
import { TaskStateIcon } from "./TaskStateIcon";
import { AgentStatus, SessionInterruption } from "./AgentStatus";
import { TaskTitle } from "./TaskTitle";
import { SessionControls } from "./session/SessionControls";
import { SessionUsage } from "./session/SessionUsage";

/** The task page: header, the live transcript, and the prompt box; subscribes `{task_id}`. */
export function TaskView({ id }: { id: string }) {
  const { t } = useTranslation();
  const live = useLiveSubscription({ task_id: id });
  const task = useTask(id);
  const sessionId = task.data?.session_id ?? null;
  const session = useSession(sessionId);
  const messages = useMessages(sessionId);
  const profiles = useAgentProfiles();
  const { fetchNextPage } = messages;
  const loadEarlier = useCallback(() => void fetchNextPage(), [fetchNextPage]);
  const [tab, setTab] = useState<"conversation" | "changes">("conversation");
  // A tool call's file opens the Changes tab at that file's diff.
  const [focusPath, setFocusPath] = useState<{ path: string } | null>(null);
  const workspaceRoot = task.data?.workspace?.path ?? null;
  const changesLink = useMemo<ChangesLink | null>(
    () =>
      workspaceRoot === null
        ? null
        : {
            root: workspaceRoot,
            open: (path) => {
              setFocusPath({ path });
              setTab("changes");
            },
          },
    [workspaceRoot],
  );
  useDocumentTitle(task.data ? `${task.data.title} · ${t("common.appName")}` : null);

  if (task.isPending) {
    return (
      <div className="task-page task-page--loading" aria-busy="true">
        <p className="muted">{t("common.loading")}</p>
      </div>
    );
  }
  if (task.isError) {
    const notFound = task.error instanceof ApiRequestError && task.error.status === 404;
    return (
      <div className="task-page">
        <BackLink />
        <p className="banner banner--error" role="alert">
          {notFound ? t("task.notFound") : t("task.loadFailed", { message: task.error.message })}
        </p>
      </div>
    );
  }

  const data = task.data;
  const icon = taskStateIcon(data);
  const running = data.turn_active;
  const profileName = profiles.data?.find((p) => p.id === data.agent_profile_id)?.name ?? data.agent_profile_id;

  return (
    <div className="task-page" data-testid="task-page" data-live={live ? "true" : "false"}>
      <div className="task-head">
        <BackLink />
        <div className="task-head__main">
          <TaskStateIcon name={icon} size={24} />
          <div className="task-head__text">
            <TaskTitle key={data.id} task={data} />
            {session.data?.title && session.data.title !== data.title ? (
              <p className="task-head__session-title" data-testid="session-title">
                {t("task.sessionTitle", { title: session.data.title })}
              </p>
            ) : null}
            <p className="task-head__meta">
              <span className={`pill pill--${icon}`}>{t(`states.${icon}`)}</span>
              <span>{t("task.agent", { name: profileName })}</span>
              {data.workspace ? (
                <span>
                  {t("task.branch")} <code data-testid="task-branch">{data.workspace.branch}</code>{" "}
                  {t("task.fromBase", { branch: data.workspace.base_branch })}
                </span>
              ) : null}
              {session.data ? <SessionInterruption session={session.data} /> : null}
            </p>
          </div>
          {session.data ? <AgentStatus session={session.data} /> : null}
          {running && sessionId ? <CancelTurnButton sessionId={sessionId} starting={data.session_state === "STARTING"} /> : null}
          {session.data?.agent_status === "idle" ? <CloseSessionButton sessionId={session.data.id} /> : null}
          {session.data && (session.data.state === "FAILED" || session.data.state === "CANCELLED") ? <RestartTaskButton taskId={data.id} /> : null}
          <TaskBoardActions task={data} />
          <DeleteTaskButton task={data} />
        </div>
        {session.data ? (
          <div className="session-bar">
            {session.data.usage ? <SessionUsage usage={session.data.usage} /> : null}
            <SessionControls session={session.data} />
          </div>
        ) : null}
      </div>

      {data.workspace ? (
        <>
          <WorkspaceActions task={data} />
          <div className="tabs" role="tablist">
            <button
              type="button"
              role="tab"
              data-testid="conversation-tab"
              aria-selected={tab === "conversation"}
              onClick={() => setTab("conversation")}
            >
              {t("task.conversationTab")}
            </button>
            <button type="button" role="tab" data-testid="changes-tab" aria-selected={tab === "changes"} onClick={() => setTab("changes")}>
              {t("task.changesTab")}
            </button>
          </div>
        </>
      ) : null}
      {tab === "changes" && data.workspace ? <ChangesPanel task={data} sessionId={sessionId} focus={focusPath} /> : null}

      <section className="transcript" aria-label={t("task.messages")} hidden={tab === "changes" && data.workspace !== null}>
        {sessionId !== null ? <EarlierSessions taskId={data.id} latestId={sessionId} /> : null}
        {sessionId === null ? (
          <p className="muted transcript__empty">{t("task.noSession")}</p>
        ) : messages.isError ? (
          <p className="banner banner--error" role="alert">
            {t("task.loadFailed", { message: messages.error.message })}
          </p>
        ) : (
          <ChangesLinkContext.Provider value={changesLink}>
            <MessageList
              messages={messages.data ?? []}
              loading={messages.isPending}
              sessionId={sessionId}
              running={running}
              earlier={{ more: messages.hasNextPage, loading: messages.isFetchingNextPage, load: loadEarlier }}
            />
          </ChangesLinkContext.Provider>
        )}
      </section>

      <AgentLogPanel sessionId={sessionId} />

      <div className="task-foot">
        <SessionPlan sessionId={sessionId} messages={messages.data ?? []} />
        <ClarificationSlot sessionId={sessionId} />
        {session.data ? <QueuedPrompts sessionId={session.data.id} queued={session.data.queued_prompts} /> : null}
        {sessionId ? (
          <PromptBox
            sessionId={sessionId}
            running={running}
            closed={session.data ? session.data.ended : data.state === "FAILED"}
            commands={session.data?.available_commands}
          />
        ) : null}
      </div>
    </div>
  );
}

function BackLink() {
  const { t } = useTranslation();
  return (
    <Link href="/" className="back-link">
      <svg width="16" height="16" viewBox="0 0 16 16" aria-hidden="true" focusable="false">
        <path d="M10 3.5 5.5 8l4.5 4.5" fill="none" stroke="currentColor" strokeWidth="1.7" strokeLinecap="round" strokeLinejoin="round" />
      </svg>
      {t("common.backToBoard")}
    </Link>
  );
}
