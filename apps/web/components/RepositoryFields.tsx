"use client";
import { useTranslation } from "react-i18next";
import { useBranches, useRepositories } from "../lib/queries";

export interface RepositoryChoice {
  /** "" means no repository: the agent works in its profile's folder. */
  repositoryId: string;
  /** null means the repository's default branch. */
  baseBranch: string | null;
}

/** The create-task dialog's repository and base-branch pickers. */
export function RepositoryFields({
  idPrefix,
  value,
  onChange,
  errors,
}: {
  idPrefix: string;
  value: RepositoryChoice;
  onChange: (next: RepositoryChoice) => void;
  errors: { repository_id?: string | undefined; base_branch?: string | undefined };
}) {
  const { t } = useTranslation();
  const repositories = useRepositories();
  const branches = useBranches(value.repositoryId === "" ? null : value.repositoryId);
  const repo = repositories.data?.find((r) => r.id === value.repositoryId);
  const base = value.baseBranch ?? repo?.default_branch ?? "";
  const error = (field: "repository_id" | "base_branch") =>
    errors[field] ? (
      <p className="field__error" id={`${idPrefix}-${field}-error`}>
        {t("errors.fieldInvalid", { message: errors[field] })}
      </p>
    ) : null;
  return (
    <div className="field-row">
      <div className="field">
        <label htmlFor={`${idPrefix}-repository`}>{t("createTask.repository")}</label>
        <select
          id={`${idPrefix}-repository`}
          data-testid="create-task-repository"
          value={value.repositoryId}
          onChange={(e) => onChange({ repositoryId: e.target.value, baseBranch: null })}
          aria-invalid={errors.repository_id ? true : undefined}
        >
          <option value="">{t("createTask.noRepository")}</option>
          {(repositories.data ?? []).map((r) => (
            <option key={r.id} value={r.id}>
              {r.name}
            </option>
          ))}
        </select>
        {error("repository_id")}
      </div>
      {value.repositoryId !== "" ? (
        <div className="field">
          <label htmlFor={`${idPrefix}-base`}>{t("createTask.baseBranch")}</label>
          <select
            id={`${idPrefix}-base`}
            data-testid="create-task-base-branch"
            value={base}
            onChange={(e) => onChange({ ...value, baseBranch: e.target.value })}
            aria-invalid={errors.base_branch ? true : undefined}
          >
            {branches.data === undefined ? <option value={base}>{base}</option> : null}
            {(branches.data?.branches ?? []).map((b) => (
              <option key={b.name} value={b.name}>
                {b.name}
              </option>
            ))}
          </select>
          {error("base_branch")}
        </div>
      ) : null}
    </div>
  );
}
