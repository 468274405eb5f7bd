"use client";
import { useCallback, useEffect, useLayoutEffect, useRef } from "react";
import type { Message } from "@kandev/protocol";
import { useTranslation } from "react-i18next";
import { useLoadOnView } from "../lib/use-load-on-view";
import { MessageItem } from "./MessageItem";

const STICK_PX = 120;

/** Earlier pages of a long transcript: whether there are more, and how to load the next. */
export interface EarlierMessages {
  more: boolean;
  loading: boolean;
  load: () => void;
}

/**
 * The live transcript. It follows the stream while the operator is at the bottom of the page and
 * leaves the scroll position alone once they scroll up to read. Only its end loads at first;
 * earlier messages load above, keeping the ones on screen where they were.
 */
export function MessageList({
  messages,
  loading,
  sessionId,
  running,
  earlier,
}: {
  messages: Message[];
  loading: boolean;
  sessionId: string;
  running: boolean;
  earlier: EarlierMessages;
}) {
  const { t } = useTranslation();
  const stick = useRef(true);
  // Distance from the bottom of the page when earlier messages were asked for; restored once they render.
  const anchor = useRef<number | null>(null);
  const { loading: loadingEarlier, load } = earlier;
  const loadEarlier = useCallback(() => {
    if (loadingEarlier) return;
    anchor.current = document.documentElement.scrollHeight - window.scrollY;
    load();
  }, [loadingEarlier, load]);
  const earlierRef = useLoadOnView<HTMLLIElement>(loadEarlier);

  useEffect(() => {
    const onScroll = () => {
      const doc = document.documentElement;
      stick.current = window.innerHeight + window.scrollY >= doc.scrollHeight - STICK_PX;
    };
    window.addEventListener("scroll", onScroll, { passive: true });
    return () => window.removeEventListener("scroll", onScroll);
  }, []);

  const first = messages[0]?.id ?? "";
  // biome-ignore lint/correctness/useExhaustiveDependencies: first is a trigger, not an input: earlier messages rendered above.
  useLayoutEffect(() => {
    if (anchor.current === null) return;
    window.scrollTo({ top: document.documentElement.scrollHeight - anchor.current });
    anchor.current = null;
  }, [first]);

  // Not the count: earlier messages loading above are no reason to jump to the end.
  const last = messages.at(-1);
  const signature = `${last?.id ?? ""}:${last?.content.length ?? 0}:${running}`;
  // biome-ignore lint/correctness/useExhaustiveDependencies: signature is a trigger, not an input: follow the stream after a new or grown message renders.
  useLayoutEffect(() => {
    if (stick.current) window.scrollTo({ top: document.documentElement.scrollHeight });
  }, [signature]);

  if (loading) return <p className="muted transcript__empty">{t("common.loading")}</p>;

  return (
    <ol className="message-list" data-testid="message-list" role="log" aria-live="polite">
      {earlier.more ? (
        <li className="transcript__earlier" ref={earlierRef}>
          <button type="button" className="button button--ghost" data-testid="load-earlier-messages" disabled={loadingEarlier} onClick={loadEarlier}>
            {loadingEarlier ? t("task.earlier.loading") : t("task.earlier.load")}
          </button>
        </li>
      ) : null}
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
