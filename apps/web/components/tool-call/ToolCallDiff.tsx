"use client";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { diffCounts, lineDiff } from "../../lib/line-diff";
import { FileLocation } from "./FileLocation";

/** A tool call's edit as a line diff: the file, +added −removed, then the lines (old and new numbers). */
export function ToolCallDiff({ path, oldText, newText, truncated }: { path: string; oldText: string | null; newText: string; truncated: boolean }) {
  const { t } = useTranslation();
  const lines = useMemo(() => lineDiff(oldText, newText), [oldText, newText]);
  const counts = diffCounts(lines);
  return (
    <section className="tool-diff" data-testid="tool-call-diff" data-path={path} data-new-file={oldText === null ? "true" : "false"}>
      <header className="tool-diff__head">
        <FileLocation location={{ path }} />
        {oldText === null ? <span className="change-status change-status--added">{t("toolCalls.newFile")}</span> : null}
        <span className="tool-diff__counts">{t("toolCalls.diffCounts", { added: counts.added, removed: counts.removed })}</span>
      </header>
      {truncated ? <p className="tool-diff__note">{t("toolCalls.diffTruncated")}</p> : null}
      <table className="tool-diff__lines">
        <tbody>
          {lines.map((l, i) => (
            // Lines have no identity beyond their place in this diff.
            // biome-ignore lint/suspicious/noArrayIndexKey: see above
            <tr key={i} className={`tool-diff__line tool-diff__line--${l.kind}`} data-kind={l.kind}>
              <td className="tool-diff__num">{l.oldLine ?? ""}</td>
              <td className="tool-diff__num">{l.newLine ?? ""}</td>
              <td className="tool-diff__sign" aria-hidden="true">
                {l.kind === "add" ? "+" : l.kind === "del" ? "−" : " "}
              </td>
              <td className="tool-diff__text">{l.text}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
