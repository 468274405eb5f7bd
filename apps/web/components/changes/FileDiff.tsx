"use client";
import { useMemo, useState } from "react";
import { DiffModeEnum, DiffView, SplitSide, getLang } from "@git-diff-view/react";
import "@git-diff-view/react/styles/diff-view-pure.css";
import { useTranslation } from "react-i18next";
import type { ChangedFile } from "@kandev/protocol";
import type { ReviewComment } from "../../lib/review/comments";
import { diffLineCount, lineText } from "../../lib/review/diff-split";
import { CommentForm } from "./CommentForm";

/** Files whose diff shows more lines than this start collapsed. */
const COLLAPSE_LINES = 400;

export interface FileDiffProps {
  file: ChangedFile;
  /** This file's `diff --git` block; undefined when the diff was cut before it. */
  block: string | undefined;
  mode: "split" | "unified";
  comments: ReviewComment[];
  onAdd: (c: Omit<ReviewComment, "id">) => void;
  onRemove: (id: string) => void;
}

/** One changed file: header with counts, then its diff (syntax highlighted) with review comments on lines. */
export function FileDiff({ file, block, mode, comments, onAdd, onRemove }: FileDiffProps) {
  const { t } = useTranslation();
  const lines = block === undefined ? 0 : diffLineCount(block);
  const [open, setOpen] = useState(lines <= COLLAPSE_LINES);
  const extendData = useMemo(() => {
    const bySide = { oldFile: {} as Record<string, { data: ReviewComment[] }>, newFile: {} as Record<string, { data: ReviewComment[] }> };
    for (const c of comments) {
      const side = c.side === "old" ? bySide.oldFile : bySide.newFile;
      const key = String(c.line);
      const entry = side[key] ?? { data: [] };
      entry.data.push(c);
      side[key] = entry;
    }
    return bySide;
  }, [comments]);
  const lang = getLang(file.path);
  return (
    <section className="file-diff" data-testid="file-diff" data-path={file.path}>
      <header className="file-diff__head">
        <code className="file-diff__path">{file.old_path ? `${file.old_path} → ${file.path}` : file.path}</code>
        <span className={`change-status change-status--${file.status}`}>{t(`changes.status.${file.status}`)}</span>
        <span className="change-count change-count--add">+{file.additions}</span>
        <span className="change-count change-count--del">−{file.deletions}</span>
        {block !== undefined && !file.binary ? (
          <button
            type="button"
            className="button button--ghost file-diff__toggle"
            data-testid="diff-expand"
            aria-expanded={open}
            onClick={() => setOpen((v) => !v)}
          >
            {open ? t("changes.collapse") : t("changes.expand", { count: lines })}
          </button>
        ) : null}
      </header>
      {file.binary ? <p className="muted file-diff__note">{t("changes.binary")}</p> : null}
      {!file.binary && block === undefined ? <p className="muted file-diff__note">{t("changes.notInDiff")}</p> : null}
      {!file.binary && block !== undefined && open ? (
        <DiffView<ReviewComment[]>
          data={{
            oldFile: { fileName: file.old_path ?? file.path, fileLang: lang },
            newFile: { fileName: file.path, fileLang: lang },
            hunks: [block],
          }}
          diffViewMode={mode === "split" ? DiffModeEnum.Split : DiffModeEnum.Unified}
          diffViewHighlight
          diffViewWrap
          diffViewFontSize={13}
          diffViewAddWidget
          extendData={extendData}
          renderWidgetLine={({ side, lineNumber, onClose }) => {
            const which = side === SplitSide.old ? "old" : "new";
            return (
              <CommentForm
                where={`${file.path}:${lineNumber}`}
                onCancel={onClose}
                onSave={(body) => {
                  onAdd({ path: file.path, side: which, line: lineNumber, quote: lineText(block, which, lineNumber) ?? "", body });
                  onClose();
                }}
              />
            );
          }}
          renderExtendLine={({ data }) => (
            <ul className="review-comments">
              {data.map((c) => (
                <li key={c.id} className="review-comment" data-testid="review-comment">
                  <span className="review-comment__where">{`${c.path}:${c.line}`}</span>
                  <p className="review-comment__body">{c.body}</p>
                  <button type="button" className="button button--ghost" onClick={() => onRemove(c.id)}>
                    {t("review.remove")}
                  </button>
                </li>
              ))}
            </ul>
          )}
        />
      ) : null}
    </section>
  );
}
