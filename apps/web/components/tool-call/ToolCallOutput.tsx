"use client";
import { useTranslation } from "react-i18next";
import { isLong } from "../../lib/tool-call-view";

/** Text a tool call produced, in a monospace block; long output starts folded. */
export function ToolCallOutput({ text, truncated }: { text: string; truncated: boolean }) {
  const { t } = useTranslation();
  const body = (
    <>
      <pre className="tool-output__text">{text}</pre>
      {truncated ? <p className="tool-diff__note">{t("toolCalls.outputTruncated")}</p> : null}
    </>
  );
  if (!isLong(text)) {
    return (
      <div className="tool-output" data-testid="tool-call-output">
        {body}
      </div>
    );
  }
  return (
    <details className="tool-output" data-testid="tool-call-output">
      <summary>{t("toolCalls.showOutput", { count: text.split("\n").length })}</summary>
      {body}
    </details>
  );
}
