"use client";
import type { Message } from "@kandev/protocol";
import { memo } from "react";
import { useTranslation } from "react-i18next";
import { errorHeadline, stderrTail } from "../lib/message-meta";
import { planEntries } from "../lib/tool-call-view";
import { sayNested } from "../lib/say";
import { AgentMarkdown } from "./AgentMarkdown";
import { failureWords, statusWords, type NestedWords } from "../lib/session-words";
import { ClarificationNote } from "./ClarificationNote";
import { PermissionCard } from "./PermissionCard";
import { ToolCallCard } from "./tool-call/ToolCallCard";
import { metadataUser } from "../lib/auth/attribution";
import { useAttribution } from "./auth/AuthContext";

/**
 * One transcript entry. Agent text and thoughts render as Markdown (AgentMarkdown: React elements,
 * never HTML; raw HTML shows as text, unsafe links as their text); what the operator typed stays
 * plain text with whitespace preserved, exactly as sent. Memoised: a streamed delta
 * makes a new object of its own message only (message-append.ts), so only that row re-renders.
 */
export const MessageItem = memo(function MessageItem({ message, sessionId }: { message: Message; sessionId: string }) {
  return (
    <li
      className={`msg msg--${message.author_type} msg--${message.type}`}
      data-testid={`message-${message.id}`}
      data-author={message.author_type}
      data-type={message.type}
    >
      <MessageBody message={message} sessionId={sessionId} />
    </li>
  );
});

function MessageBody({ message, sessionId }: { message: Message; sessionId: string }) {
  const { t } = useTranslation();
  const type = message.type;
  // The server's words are the fallback for anything it says without a code this app knows.
  const headline = (words: NestedWords | null, server: string) => (words !== null ? sayNested(t, words) : server);
  // On a board with sign-in a user message says who sent it (issue 34); "You" otherwise.
  const sender = useAttribution(message.author_type === "user" ? metadataUser(message.metadata) : null);
  switch (type) {
    case "text":
      return (
        <div className="bubble">
          <span className="bubble__author" data-testid={sender ? "message-sender" : undefined}>
            {sender ? t("auth.sentBy", { user: sender }) : message.author_type === "user" ? t("task.you") : t("task.agentAuthor")}
          </span>
          {message.author_type === "agent" ? (
            <AgentMarkdown className="bubble__text" text={message.content} />
          ) : (
            <p className="bubble__text">{message.content}</p>
          )}
        </div>
      );
    case "thought":
      return (
        <div className="thought">
          <span className="thought__label">{t("task.thought")}</span>
          {message.author_type === "agent" ? (
            <AgentMarkdown className="thought__text" text={message.content} />
          ) : (
            <p className="thought__text">{message.content}</p>
          )}
        </div>
      );
    case "tool_call":
      return <ToolCallCard message={message} />;
    case "plan": {
      // The plan itself is pinned above the prompt box (SessionPlan); here it is one line.
      const entries = planEntries(message) ?? [];
      const done = entries.filter((e) => e.status === "completed").length;
      return (
        <p className="status-line" data-testid="plan-message">
          {t("plan.updated", { done, total: entries.length })}
        </p>
      );
    }
    case "error": {
      const tail = stderrTail(message);
      return (
        <div className="error-card" role="alert">
          <p className="error-card__title">{t("task.error")}</p>
          <p className="error-card__text">{headline(failureWords(message), errorHeadline(message))}</p>
          {tail ? (
            <details className="error-card__tail" open>
              <summary>{t("task.stderrTail")}</summary>
              <pre>{tail}</pre>
            </details>
          ) : null}
        </div>
      );
    }
    case "status":
      return (
        <p className="status-line">
          <span className="sr-only">{t("task.status")}</span>
          {headline(statusWords(message), message.content)}
        </p>
      );
    case "permission_request":
      return <PermissionCard message={message} sessionId={sessionId} />;
    case "clarification_request":
      return <ClarificationNote message={message} />;
    default: {
      const unreachable: never = type;
      return <p className="status-line">{String(unreachable)}</p>;
    }
  }
}
