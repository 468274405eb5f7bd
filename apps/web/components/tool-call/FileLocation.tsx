"use client";
import type { ToolCallLocation } from "@kandev/protocol";
import { useTranslation } from "react-i18next";
import { locationLabel, workspaceRelative } from "../../lib/tool-call-view";
import { useChangesLink } from "./ChangesLink";

/** `path:line`; a button opening the file in the Changes view when it lies in the task's worktree. */
export function FileLocation({ location }: { location: ToolCallLocation }) {
  const { t } = useTranslation();
  const link = useChangesLink();
  const label = locationLabel(location, link?.root ?? null);
  const relative = link === null ? null : workspaceRelative(location.path, link.root);
  if (link === null || relative === null) {
    return (
      <code className="tool-location" data-testid="tool-call-location">
        {label}
      </code>
    );
  }
  return (
    <button
      type="button"
      className="tool-location tool-location--link"
      data-testid="tool-call-location"
      title={t("toolCalls.openInChanges", { path: relative })}
      onClick={() => link.open(relative)}
    >
      <code>{label}</code>
    </button>
  );
}
