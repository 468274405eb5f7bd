"use client";
import { useEffect, useLayoutEffect, useRef } from "react";
import type { Message } from "@kandev/protocol";
import { useTranslation } from "react-i18next";
import { MessageItem } from "./MessageItem";

const STICK_PX = 120;

/**
 * The live transcript. It follows the stream while the operator is at the bottom of the page and
 * leaves the scroll position alone once they scroll up to read.
 */
export function MessageList({
  messages,
  loading,
  sessionId,
  running,
}: {
  messages: Message[];
  loading: boolean;
  sessionId: string;
  running: boolean;
}) {
  const { t } = useTranslation();
  const stick = useRef(true);

  useEffect(() => {
    const onScroll = () => {
      const doc = document.documentElement;
      stick.current = window.innerHeight + window.scrollY >= doc.scrollHeight - STICK_PX;
    };
    window.addEventListener("scroll", onScroll, { passive: true });
    return () => window.removeEventListener("scroll", onScroll);
  }, []);

  const last = messages.at(-1);
  const signature = `${messages.length}:${last?.id ?? ""}:${last?.content.length ?? 0}:${running}`;
  // biome-ignore lint/correctness/useExhaustiveDependencies: signature is a trigger, not an input: follow the stream after a new or grown message renders.
  useLayoutEffect(() => {
    if (stick.current) window.scrollTo({ top: document.documentElement.scrollHeight });
  }, [signature]);

  if (loading) return <p className="muted transcript__empty">{t("common.loading")}</p>;

  return (
    <ol className="message-list" data-testid="message-list" role="log" aria-live="polite">
      {messages.length === 0 ? <li className="muted transcript__empty">{t("task.noMessages")}</li> : null}
      {messages.map((m) => (
        <MessageItem key={m.id} message={m} sessionId={sessionId} />
      ))}
      {running ? (
        <li className="typing" aria-hidden="true">
          <span />
          <span />
          <span />
        </li>
      ) : null}
    </ol>
  );
}
