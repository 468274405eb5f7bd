"use client";
import { useEffect, useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type { SessionLogLine } from "@kandev/protocol";
import { useSessionLogs } from "../lib/queries";

/**
 * A key per line that stays with the line when the window drops its oldest ones: the time it was
 * received and how many earlier lines share that time (an index would shift on every drop).
 */
function keyedLines(lines: readonly SessionLogLine[]): Array<{ key: string; line: SessionLogLine }> {
  const seen = new Map<string, number>();
  return lines.map((line) => {
    const n = seen.get(line.at) ?? 0;
    seen.set(line.at, n + 1);
    return { key: `${line.at}#${n}`, line };
  });
}

/**
 * The agent's stderr, as the board keeps it (secrets redacted): collapsed by default, fetched when
 * opened, and grown live by `session.log` while the task page is subscribed. Follows the newest
 * line unless the operator scrolled up to read.
 */
export function AgentLogPanel({ sessionId }: { sessionId: string | null }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const bodyId = useId();
  const logs = useSessionLogs(sessionId, open);
  const lines = logs.data ?? [];
  const scroller = useRef<HTMLPreElement>(null);
  const following = useRef(true);

  // biome-ignore lint/correctness/useExhaustiveDependencies: lines.length and open are triggers, not inputs: scroll after new lines or the opened panel render.
  useEffect(() => {
    const el = scroller.current;
    if (el && following.current) el.scrollTop = el.scrollHeight;
  }, [lines.length, open]);

  if (sessionId === null) return null;
  return (
    <section className="agent-log" aria-label={t("agentLog.title")}>
      <button
        type="button"
        className="agent-log__toggle"
        data-testid="agent-log-toggle"
        aria-expanded={open}
        aria-controls={bodyId}
        onClick={() => setOpen((v) => !v)}
      >
        <svg className="agent-log__chevron" width="12" height="12" viewBox="0 0 12 12" aria-hidden="true" focusable="false">
          <path d="M4 2.5 7.5 6 4 9.5" fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" strokeLinejoin="round" />
        </svg>
        {t("agentLog.title")}
        {open && logs.data ? <span className="agent-log__count">{t("agentLog.lines", { count: lines.length })}</span> : null}
      </button>
      {open ? (
        <div id={bodyId} className="agent-log__body" data-testid="agent-log">
          {logs.isPending ? (
            <p className="muted">{t("common.loading")}</p>
          ) : logs.isError ? (
            <p className="banner banner--error" role="alert">
              {t("agentLog.loadFailed", { message: logs.error.message })}
            </p>
          ) : lines.length === 0 ? (
            <p className="muted">{t("agentLog.empty")}</p>
          ) : (
            <pre
              ref={scroller}
              className="agent-log__lines"
              role="log"
              aria-live="polite"
              onScroll={(e) => {
                const el = e.currentTarget;
                following.current = el.scrollHeight - el.scrollTop - el.clientHeight < 24;
              }}
            >
              {keyedLines(lines).map(({ key, line }) => (
                <span key={key} className="agent-log__line" title={line.at}>
                  {line.text}
                  {"\n"}
                </span>
              ))}
            </pre>
          )}
        </div>
      ) : null}
    </section>
  );
}
