"use client";
import type { Message } from "@kandev/protocol";
import { useTranslation } from "react-i18next";
import { rawToolStatus, toolCallStatus } from "../../lib/message-meta";
import { toolCallDetails } from "../../lib/tool-call-view";
import { FileLocation } from "./FileLocation";
import { ToolCallDiff } from "./ToolCallDiff";
import { ToolCallOutput } from "./ToolCallOutput";
import { ToolKindIcon } from "./ToolKindIcon";

/**
 * A tool_call message: kind icon, title, status, then what the call carries (metadata, see
 * protocol tool-calls.ts): its files as `path:line`, diffs, text output, terminals, and the raw
 * input and output folded away.
 */
export function ToolCallCard({ message }: { message: Message }) {
  const { t } = useTranslation();
  const status = toolCallStatus(message);
  const details = toolCallDetails(message);
  const hasBody = details.content.length > 0 || details.locations.length > 0 || details.rawInput !== null || details.rawOutput !== null;
  return (
    <div className={`tool-call tool-call--${status}`} data-status={rawToolStatus(message) || status} data-tool-kind={details.kind}>
      <div className="tool-call__head">
        <ToolKindIcon kind={details.kind} />
        <span className="sr-only">{t(`toolCalls.kind.${details.kind}`)}</span>
        <span className="tool-call__title">{message.content}</span>
        <span className={`badge badge--${status}`} data-testid="tool-call-status">
          {status === "unknown" ? t("task.toolStatus.unknown", { status: rawToolStatus(message) }) : t(`task.toolStatus.${status}`)}
        </span>
      </div>
      {hasBody ? (
        <div className="tool-call__body">
          {details.locations.length > 0 ? (
            <ul className="tool-call__locations" aria-label={t("toolCalls.locations")}>
              {details.locations.map((loc) => (
                <li key={`${loc.path}:${loc.line ?? ""}`}>
                  <FileLocation location={loc} />
                </li>
              ))}
            </ul>
          ) : null}
          {details.content.map((item, i) => {
            // Content is replaced whole by updates and has no ids: its place is its identity.
            const key = `${i}-${item.type}`;
            switch (item.type) {
              case "diff":
                return (
                  <ToolCallDiff key={key} path={item.path} oldText={item.old_text} newText={item.new_text} truncated={item.truncated === true} />
                );
              case "text":
                return <ToolCallOutput key={key} text={item.text} truncated={item.truncated === true} />;
              case "terminal":
                return (
                  <p key={key} className="tool-call__terminal" data-testid="tool-call-terminal">
                    {t("toolCalls.terminal", { id: item.terminal_id })}
                  </p>
                );
              default: {
                const _x: never = item;
                return null;
              }
            }
          })}
          {details.rawInput !== null ? <RawBlock testId="tool-call-raw-input" label={t("toolCalls.rawInput")} raw={details.rawInput} /> : null}
          {details.rawOutput !== null ? <RawBlock testId="tool-call-raw-output" label={t("toolCalls.rawOutput")} raw={details.rawOutput} /> : null}
        </div>
      ) : null}
    </div>
  );
}

function RawBlock({ testId, label, raw }: { testId: string; label: string; raw: { text: string; truncated: boolean } }) {
  const { t } = useTranslation();
  return (
    <details className="tool-call__raw" data-testid={testId}>
      <summary>
        {label}
        {raw.truncated ? ` ${t("toolCalls.rawTruncated")}` : null}
      </summary>
      <pre>{raw.text}</pre>
    </details>
  );
}
