"use client";
import { useEffect, useMemo, useState } from "react";
import dynamic from "next/dynamic";
import { useMutation } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import type { Task } from "@kandev/protocol";
import { api } from "../../lib/api";
import { useChanges } from "../../lib/queries";
import { buildReviewPrompt } from "../../lib/review/comments";
import { splitDiff } from "../../lib/review/diff-split";
import { useReviewComments } from "../../lib/review/use-review-comments";
import { loadOr } from "../../lib/load-or";

/**
 * The diff viewer carries highlight.js with every language (about 1.3 MB of script): loaded when the
 * Changes tab first shows a file, so a task page opens without it. If it cannot be loaded, each file
 * says so and offers a reload, and the rest of the page stays.
 */
const FileDiff = dynamic(
  loadOr(
    () => import("./FileDiff").then((m) => m.FileDiff),
    () => <DiffUnavailable />,
  ),
  { ssr: false, loading: () => <DiffLoading /> },
);

function DiffUnavailable() {
  const { t } = useTranslation();
  return (
    <p className="banner banner--error" role="alert" data-testid="diff-unavailable">
      {t("changes.viewerFailed")}{" "}
      <button type="button" className="button button--ghost" onClick={() => window.location.reload()}>
        {t("changes.reload")}
      </button>
    </p>
  );
}

function DiffLoading() {
  const { t } = useTranslation();
  return <p className="muted">{t("common.loading")}</p>;
}

/**
 * The task page's Changes tab: the worktree against its base commit (file list with counts, then
 * each file's diff), refetched whenever `task.changes.updated` arrives, and the review comments the
 * operator writes on lines, sent back to the agent as one prompt.
 */
export function ChangesPanel({ task, sessionId, focus = null }: { task: Task; sessionId: string | null; focus?: { path: string } | null }) {
  const { t } = useTranslation();
  const changes = useChanges(task.id, true);
  const [mode, setMode] = useState<"split" | "unified">("unified");
  const review = useReviewComments(task.id);
  const blocks = useMemo(() => splitDiff(changes.data?.diff ?? ""), [changes.data?.diff]);
  const send = useMutation({
    mutationFn: () => api.prompt(sessionId ?? "", buildReviewPrompt(review.comments, t("review.intro"))),
    onSuccess: () => review.clear(),
  });

  // A file opened from a tool call: scroll to its diff once the diff is there (a new object per click).
  const loaded = changes.data !== undefined;
  useEffect(() => {
    if (focus === null || !loaded) return;
    document.getElementById(`diff-${encodeURIComponent(focus.path)}`)?.scrollIntoView({ block: "start" });
  }, [focus, loaded]);

  if (changes.isPending) return <p className="muted">{t("common.loading")}</p>;
  if (changes.isError) {
    return (
      <p className="banner banner--error" role="alert">
        {t("changes.loadFailed", { message: changes.error.message })}
      </p>
    );
  }
  const { files, truncated } = changes.data;
  const added = files.reduce((n, f) => n + f.additions, 0);
  const deleted = files.reduce((n, f) => n + f.deletions, 0);
  return (
    <div className="changes" data-testid="changes-panel">
      <div className="changes__bar">
        <span data-testid="changes-summary">{t("changes.summary", { count: files.length, added, deleted })}</span>
        <fieldset className="segmented" aria-label={t("changes.viewLabel")}>
          <button type="button" data-testid="diff-mode-unified" aria-pressed={mode === "unified"} onClick={() => setMode("unified")}>
            {t("changes.unified")}
          </button>
          <button type="button" data-testid="diff-mode-split" aria-pressed={mode === "split"} onClick={() => setMode("split")}>
            {t("changes.split")}
          </button>
        </fieldset>
      </div>
      {truncated ? <p className="banner">{t("changes.truncated")}</p> : null}
      {files.length === 0 ? <p className="muted">{t("changes.empty")}</p> : null}
      <ul className="changes__files">
        {files.map((f) => (
          <li key={f.path} data-testid="changes-file" data-path={f.path}>
            <a href={`#diff-${encodeURIComponent(f.path)}`}>
              <code>{f.path}</code>
            </a>
            <span className={`change-status change-status--${f.status}`}>{t(`changes.status.${f.status}`)}</span>
            <span className="change-count change-count--add">+{f.additions}</span>
            <span className="change-count change-count--del">−{f.deletions}</span>
          </li>
        ))}
      </ul>
      <div className="review-bar">
        <span data-testid="review-count">{t("review.pending", { count: review.comments.length })}</span>
        <button
          type="button"
          className="button button--primary"
          data-testid="send-review"
          disabled={review.comments.length === 0 || sessionId === null || task.turn_active || send.isPending}
          onClick={() => send.mutate()}
        >
          {send.isPending ? t("review.sending") : t("review.send")}
        </button>
        {send.error ? (
          <span className="banner banner--error" role="alert">
            {t("review.sendFailed", { message: send.error.message })}
          </span>
        ) : null}
      </div>
      {files.map((f) => (
        <div key={f.path} id={`diff-${encodeURIComponent(f.path)}`}>
          <FileDiff
            file={f}
            block={blocks.get(f.path)}
            mode={mode}
            comments={review.comments.filter((c) => c.path === f.path)}
            onAdd={review.add}
            onRemove={review.remove}
          />
        </div>
      ))}
    </div>
  );
}
