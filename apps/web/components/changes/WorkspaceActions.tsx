"use client";
import { useState } from "react";
import { useMutation } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import type { Task } from "@kandev/protocol";
import { ApiRequestError, api } from "../../lib/api";
import { useAttribution } from "../auth/AuthContext";

/** Merge (or squash) the task's branch into its base branch, or push it; says what happened. */
export function WorkspaceActions({ task }: { task: Task }) {
  const { t } = useTranslation();
  const [strategy, setStrategy] = useState<"merge" | "squash">("merge");
  const merge = useMutation({ mutationFn: () => api.mergeTask(task.id, { strategy }) });
  const push = useMutation({ mutationFn: () => api.pushTask(task.id) });
  // The merge just made here, or the one the task records (TaskWorkspace.merged_by), says who merged.
  const mergedBy = useAttribution(merge.data?.merged_by ?? task.workspace?.merged_by);
  const ws = task.workspace;
  if (ws === null) return null;
  const conflictFiles = (err: Error | null): string[] => {
    if (!(err instanceof ApiRequestError) || typeof err.details !== "object" || err.details === null) return [];
    const files = (err.details as { files?: unknown }).files;
    return Array.isArray(files) ? files.filter((f): f is string => typeof f === "string") : [];
  };
  return (
    <div className="workspace-actions">
      <select
        data-testid="merge-strategy"
        aria-label={t("workspace.strategy")}
        value={strategy}
        onChange={(e) => setStrategy(e.target.value === "squash" ? "squash" : "merge")}
      >
        <option value="merge">{t("workspace.strategyMerge")}</option>
        <option value="squash">{t("workspace.strategySquash")}</option>
      </select>
      <button
        type="button"
        className="button button--primary"
        data-testid="merge-button"
        disabled={merge.isPending || task.turn_active}
        onClick={() => {
          push.reset();
          merge.mutate();
        }}
      >
        {merge.isPending ? t("workspace.merging") : t("workspace.merge", { branch: ws.base_branch })}
      </button>
      <button
        type="button"
        className="button button--ghost"
        data-testid="push-button"
        disabled={push.isPending}
        onClick={() => {
          merge.reset();
          push.mutate();
        }}
      >
        {push.isPending ? t("workspace.pushing") : t("workspace.push")}
      </button>
      {merge.data ? (
        <p className="banner" role="status" data-testid="merge-result">
          {t("workspace.merged", { branch: merge.data.base_branch, commit: merge.data.commit.slice(0, 8) })}
          {mergedBy ? <span data-testid="merged-by"> {t("auth.mergedBy", { user: mergedBy })}</span> : null}
        </p>
      ) : null}
      {!merge.data && mergedBy ? (
        <p className="muted" data-testid="merged-by">
          {t("auth.mergedBy", { user: mergedBy })}
        </p>
      ) : null}
      {merge.error ? (
        <p className="banner banner--error" role="alert" data-testid="merge-error">
          {t("workspace.mergeFailed", { message: merge.error.message })}
          {conflictFiles(merge.error).length > 0 ? ` ${t("workspace.conflictFiles", { files: conflictFiles(merge.error).join(", ") })}` : null}
        </p>
      ) : null}
      {push.data ? (
        <p className="banner" role="status" data-testid="push-result">
          {t("workspace.pushed", { remote: push.data.remote, branch: push.data.branch })}
        </p>
      ) : null}
      {push.error ? (
        <p className="banner banner--error" role="alert" data-testid="push-error">
          {t("workspace.pushFailed", { message: push.error.message })}
        </p>
      ) : null}
    </div>
  );
}
