"use client";
import { useId, useState, type FormEvent } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import type { Repository } from "@kandev/protocol";
import { ApiRequestError, api } from "../../lib/api";
import { useBranches, useRepositories } from "../../lib/queries";
import { queryKeys } from "../../lib/query-keys";
import { useCan } from "../auth/AuthContext";
import { SettingsSection } from "./SettingsSection";

/** Settings -> Repositories: register a git work tree by its path, see its branches, remove it. */
export function RepositoriesSection() {
  const { t } = useTranslation();
  const repositories = useRepositories();
  const mayManage = useCan("manage_repositories");
  return (
    <SettingsSection id="repositories" title={t("repositories.heading")} description={t("repositories.description")}>
      {repositories.isPending ? <p className="muted">{t("common.loading")}</p> : null}
      {repositories.isError ? (
        <p className="banner banner--error" role="alert">
          {t("settings.loadFailed", { message: repositories.error.message })}
        </p>
      ) : null}
      {repositories.data && repositories.data.length === 0 ? <p className="muted">{t("repositories.empty")}</p> : null}
      {repositories.data && repositories.data.length > 0 ? (
        <ul className="settings-list">
          {repositories.data.map((r) => (
            <RepositoryRow key={r.id} repository={r} />
          ))}
        </ul>
      ) : null}
      {mayManage ? <AddRepositoryForm /> : null}
    </SettingsSection>
  );
}

function AddRepositoryForm() {
  const { t } = useTranslation();
  const ids = useId();
  const queryClient = useQueryClient();
  const [path, setPath] = useState("");
  const add = useMutation({
    mutationFn: () => api.addRepository({ path }),
    onSuccess: (repo) => {
      queryClient.setQueryData<Repository[]>(queryKeys.repositories(), (old) => [...(old ?? []).filter((r) => r.id !== repo.id), repo]);
      setPath("");
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (path.trim().length > 0 && !add.isPending) add.mutate();
  };
  const problem = add.error instanceof ApiRequestError ? (add.error.fieldProblems()[0]?.message ?? add.error.message) : add.error?.message;
  return (
    <form className="repo-add" onSubmit={submit} noValidate>
      <div className="field">
        <label htmlFor={`${ids}-path`}>{t("repositories.path")}</label>
        <input
          id={`${ids}-path`}
          data-testid="repository-path"
          value={path}
          onChange={(e) => setPath(e.target.value)}
          placeholder={t("repositories.pathPlaceholder")}
          autoComplete="off"
          aria-invalid={problem ? true : undefined}
        />
      </div>
      <button type="submit" className="button button--primary" data-testid="repository-add" disabled={add.isPending || path.trim().length === 0}>
        {add.isPending ? t("repositories.adding") : t("repositories.add")}
      </button>
      {problem ? (
        <p className="banner banner--error" role="alert" data-testid="repository-error">
          {t("repositories.addFailed", { message: problem })}
        </p>
      ) : null}
    </form>
  );
}

function RepositoryRow({ repository }: { repository: Repository }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const mayManage = useCan("manage_repositories");
  const [showBranches, setShowBranches] = useState(false);
  const branches = useBranches(showBranches ? repository.id : null);
  const remove = useMutation({
    mutationFn: () => api.removeRepository(repository.id),
    onSuccess: () => queryClient.setQueryData<Repository[]>(queryKeys.repositories(), (old) => (old ?? []).filter((r) => r.id !== repository.id)),
  });
  return (
    <li className="profile" data-testid="repository-row">
      <div className="profile__head">
        <p className="profile__name">{repository.name}</p>
        <span className="pill">{t("repositories.defaultBranch", { branch: repository.default_branch })}</span>
      </div>
      <code className="repo-path">{repository.path}</code>
      <div className="repo-actions">
        <button
          type="button"
          className="button button--ghost"
          data-testid="repository-branches"
          aria-expanded={showBranches}
          onClick={() => setShowBranches((v) => !v)}
        >
          {showBranches ? t("repositories.hideBranches") : t("repositories.showBranches")}
        </button>
        {mayManage ? (
          <button
            type="button"
            className="button button--danger"
            data-testid="repository-remove"
            disabled={remove.isPending}
            onClick={() => remove.mutate()}
          >
            {t("repositories.remove")}
          </button>
        ) : null}
      </div>
      {remove.error ? (
        <p className="banner banner--error" role="alert">
          {t("repositories.removeFailed", { message: remove.error.message })}
        </p>
      ) : null}
      {showBranches && branches.data ? (
        <ul className="repo-branches" data-testid="repository-branch-list">
          {branches.data.branches.map((b) => (
            <li key={b.name}>
              <code>{b.name}</code> <span className="muted">{b.commit.slice(0, 8)}</span>
              {b.current ? <span className="pill">{t("repositories.current")}</span> : null}
            </li>
          ))}
        </ul>
      ) : null}
    </li>
  );
}
