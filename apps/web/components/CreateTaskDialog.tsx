"use client";
import { useId, useRef, useState, type FormEvent, type KeyboardEvent } from "react";
import { useRouter } from "next/navigation";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { ApiRequestError, api } from "../lib/api";
import { type Words, fieldProblemWords, taskFormProblems } from "../lib/field-errors";
import { say } from "../lib/say";
import { serverErrorWords } from "../lib/server-errors";
import { upsertBoardTasks } from "../lib/paged-cache";
import { useAgentProfiles } from "../lib/queries";
import { queryKeys } from "../lib/query-keys";
import { RepositoryFields, type RepositoryChoice } from "./RepositoryFields";

const DEFAULT_PROFILE = "mock";
type Field = "title" | "prompt" | "agent_profile_id" | "repository_id" | "base_branch";
const FIELDS: readonly Field[] = ["title", "prompt", "agent_profile_id", "repository_id", "base_branch"];

/** "New task" button plus its modal form; on success the operator lands on the new task. */
export function CreateTaskDialog() {
  const { t } = useTranslation();
  const router = useRouter();
  const queryClient = useQueryClient();
  const dialogRef = useRef<HTMLDialogElement>(null);
  const ids = useId();
  const [open, setOpen] = useState(false);
  const [title, setTitle] = useState("");
  const [prompt, setPrompt] = useState("");
  const [profile, setProfile] = useState<string | null>(null);
  const [where, setWhere] = useState<RepositoryChoice>({ repositoryId: "", baseBranch: null });
  const [fieldErrors, setFieldErrors] = useState<Partial<Record<Field, Words>>>({});
  const profiles = useAgentProfiles();

  const profileOptions = profiles.data ?? [];
  const selectedProfile =
    profile ?? (profileOptions.some((p) => p.id === DEFAULT_PROFILE) ? DEFAULT_PROFILE : (profileOptions[0]?.id ?? DEFAULT_PROFILE));

  const create = useMutation({
    mutationFn: () =>
      api.createTask({
        title,
        prompt,
        agent_profile_id: selectedProfile,
        ...(where.repositoryId !== "" && { repository_id: where.repositoryId }),
        ...(where.repositoryId !== "" && where.baseBranch !== null && { base_branch: where.baseBranch }),
      }),
    onSuccess: ({ task, session }) => {
      upsertBoardTasks(queryClient, [task]);
      queryClient.setQueryData(queryKeys.task(task.id), task);
      queryClient.setQueryData(queryKeys.session(session.id), session);
      setTitle("");
      setPrompt("");
      setFieldErrors({});
      close();
      router.push(`/tasks/${task.id}`);
    },
    onError: (err) => {
      const problems = err instanceof ApiRequestError ? err.fieldProblems() : [];
      const next: Partial<Record<Field, Words>> = {};
      for (const p of problems) {
        const field = FIELDS.find((f) => p.path === f || p.path.startsWith(`${f}.`));
        if (field && !next[field]) next[field] = fieldProblemWords(field, p);
      }
      setFieldErrors(next);
    },
  });

  function show() {
    create.reset();
    setFieldErrors({});
    dialogRef.current?.showModal();
    setOpen(true);
  }
  function close() {
    dialogRef.current?.close();
  }
  function submit(e: FormEvent) {
    e.preventDefault();
    if (create.isPending) return;
    // Blank fields are said at once, in the operator's words; the API refuses them too.
    const own = taskFormProblems({ title, prompt });
    if (own.length > 0) {
      create.reset();
      setFieldErrors(Object.fromEntries(own.map((p) => [p.field, p.words])));
      return;
    }
    create.mutate();
  }
  function onKeyDown(e: KeyboardEvent) {
    if (e.key === "Enter" && (e.metaKey || e.ctrlKey)) submit(e);
  }

  // Errors that belong to no field (conflicts, network, a field this form does not show).
  const generalError = create.error && Object.keys(fieldErrors).length === 0 ? say(t, serverErrorWords(create.error)) : null;

  const describe = (field: Field) => (fieldErrors[field] ? `${ids}-${field}-error` : undefined);
  const fieldError = (field: Field) =>
    fieldErrors[field] ? (
      <p className="field__error" id={`${ids}-${field}-error`} data-testid={`create-task-${field}-error`}>
        {say(t, fieldErrors[field])}
      </p>
    ) : null;

  return (
    <>
      <button type="button" className="button button--primary" data-testid="create-task-button" onClick={show}>
        <svg width="16" height="16" viewBox="0 0 16 16" aria-hidden="true" focusable="false">
          <path d="M8 3v10M3 8h10" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" />
        </svg>
        {t("createTask.open")}
      </button>
      {/* biome-ignore lint/a11y/useKeyWithClickEvents: the click is on the backdrop only (the dialog itself is the target); keyboard users close it with Escape, native to <dialog>. */}
      <dialog
        ref={dialogRef}
        className="dialog"
        aria-labelledby={`${ids}-heading`}
        aria-describedby={`${ids}-description`}
        onClose={() => setOpen(false)}
        onClick={(e) => {
          if (e.target === dialogRef.current) close();
        }}
      >
        {open ? (
          <form className="dialog__body" onSubmit={submit} onKeyDown={onKeyDown} noValidate>
            <div className="dialog__head">
              <h2 id={`${ids}-heading`}>{t("createTask.heading")}</h2>
              <button type="button" className="icon-button" onClick={close} aria-label={t("common.close")}>
                <svg width="18" height="18" viewBox="0 0 18 18" aria-hidden="true" focusable="false">
                  <path d="m4.5 4.5 9 9m0-9-9 9" stroke="currentColor" strokeWidth="1.7" strokeLinecap="round" />
                </svg>
              </button>
            </div>
            <p className="dialog__description" id={`${ids}-description`}>
              {t("createTask.description")}
            </p>

            <div className="field">
              <label htmlFor={`${ids}-title`}>{t("createTask.title")}</label>
              <input
                id={`${ids}-title`}
                data-testid="create-task-title"
                value={title}
                onChange={(e) => setTitle(e.target.value)}
                placeholder={t("createTask.titlePlaceholder")}
                autoComplete="off"
                autoFocus
                aria-invalid={fieldErrors.title ? true : undefined}
                aria-describedby={describe("title")}
              />
              {fieldError("title")}
            </div>

            <div className="field">
              <label htmlFor={`${ids}-prompt`}>{t("createTask.prompt")}</label>
              <textarea
                id={`${ids}-prompt`}
                data-testid="create-task-prompt"
                value={prompt}
                onChange={(e) => setPrompt(e.target.value)}
                placeholder={t("createTask.promptPlaceholder")}
                rows={6}
                aria-invalid={fieldErrors.prompt ? true : undefined}
                aria-describedby={describe("prompt")}
              />
              {fieldError("prompt")}
            </div>

            <div className="field">
              <label htmlFor={`${ids}-profile`}>{t("createTask.profile")}</label>
              <select
                id={`${ids}-profile`}
                data-testid="create-task-profile"
                value={selectedProfile}
                onChange={(e) => setProfile(e.target.value)}
                disabled={profiles.isPending}
                aria-invalid={fieldErrors.agent_profile_id ? true : undefined}
                aria-describedby={describe("agent_profile_id")}
              >
                {profiles.isPending ? <option value={DEFAULT_PROFILE}>{t("createTask.profilesLoading")}</option> : null}
                {profileOptions.map((p) => (
                  <option key={p.id} value={p.id}>
                    {p.name}
                  </option>
                ))}
              </select>
              {fieldError("agent_profile_id")}
            </div>

            <RepositoryFields
              idPrefix={ids}
              value={where}
              onChange={setWhere}
              errors={{
                repository_id: fieldErrors.repository_id && say(t, fieldErrors.repository_id),
                base_branch: fieldErrors.base_branch && say(t, fieldErrors.base_branch),
              }}
            />

            {generalError ? (
              <p className="banner banner--error" role="alert">
                {t("createTask.failed", { message: generalError })}
              </p>
            ) : null}

            <div className="dialog__actions">
              <span className="dialog__hint">{t("createTask.hint", { shortcut: "Ctrl+Enter" })}</span>
              <button type="button" className="button button--ghost" onClick={close}>
                {t("common.cancel")}
              </button>
              <button type="submit" className="button button--primary" data-testid="create-task-submit" disabled={create.isPending}>
                {create.isPending ? t("createTask.submitting") : t("createTask.submit")}
              </button>
            </div>
          </form>
        ) : null}
      </dialog>
    </>
  );
}
