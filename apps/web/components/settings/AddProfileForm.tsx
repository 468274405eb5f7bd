"use client";
import { useId, useState, type FormEvent } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { AgentProfile } from "@kandev/protocol";
import { useTranslation } from "react-i18next";
import { api } from "../../lib/api";
import { queryKeys } from "../../lib/query-keys";
import { say } from "../../lib/say";
import { serverErrorWords } from "../../lib/server-errors";
import { profileBody, type FormProblem } from "../../lib/settings/profile-form";

/** Adds an ACP agent: a name, its command (one argument per line), environment and directory. */
export function AddProfileForm() {
  const { t } = useTranslation();
  const ids = useId();
  const queryClient = useQueryClient();
  const [fields, setFields] = useState({ name: "", command: "", env: "", cwd: "" });
  const [problems, setProblems] = useState<FormProblem[]>([]);
  const add = useMutation({
    mutationFn: api.createAgentProfile,
    onSuccess: (profile) => {
      queryClient.setQueryData<AgentProfile[]>(queryKeys.agentProfiles(), (old) =>
        old ? [...old.filter((p) => p.id !== profile.id), profile] : [profile],
      );
      setFields({ name: "", command: "", env: "", cwd: "" });
    },
  });

  function submit(e: FormEvent) {
    e.preventDefault();
    const result = profileBody(fields);
    if ("problems" in result) {
      setProblems(result.problems);
      return;
    }
    setProblems([]);
    add.mutate(result.body);
  }

  const problemText = (field: FormProblem["field"]) => {
    const p = problems.find((x) => x.field === field);
    if (!p) return null;
    const text =
      p.kind === "line"
        ? t("settings.profiles.envLine", { line: p.line })
        : p.field === "name"
          ? t("validation.nameBlank")
          : t("validation.commandEmpty");
    return (
      <p className="field__error" id={`${ids}-${field}-error`}>
        {text}
      </p>
    );
  };
  const invalid = (field: FormProblem["field"]) => problems.some((p) => p.field === field);
  const set = (key: keyof typeof fields) => (e: { target: { value: string } }) => setFields((f) => ({ ...f, [key]: e.target.value }));
  const serverError = add.error ? say(t, serverErrorWords(add.error)) : null;

  return (
    <form className="profile-form" onSubmit={submit} noValidate data-testid="add-profile-form">
      <h3 className="profile-form__title">{t("settings.profiles.add")}</h3>
      <div className="profile-form__grid">
        <div className="field">
          <label htmlFor={`${ids}-name`}>{t("settings.profiles.name")}</label>
          <input
            id={`${ids}-name`}
            data-testid="profile-name"
            value={fields.name}
            onChange={set("name")}
            placeholder={t("settings.profiles.namePlaceholder")}
            aria-invalid={invalid("name") || undefined}
            aria-describedby={invalid("name") ? `${ids}-name-error` : undefined}
            autoComplete="off"
          />
          {problemText("name")}
        </div>
        <div className="field">
          <label htmlFor={`${ids}-cwd`}>{t("settings.profiles.cwdLabel")}</label>
          <input id={`${ids}-cwd`} data-testid="profile-cwd" value={fields.cwd} onChange={set("cwd")} autoComplete="off" />
        </div>
        <div className="field">
          <label htmlFor={`${ids}-command`}>{t("settings.profiles.commandLabel")}</label>
          <textarea
            id={`${ids}-command`}
            data-testid="profile-command"
            value={fields.command}
            onChange={set("command")}
            placeholder={t("settings.profiles.commandPlaceholder")}
            rows={3}
            spellCheck={false}
            aria-invalid={invalid("command") || undefined}
            aria-describedby={invalid("command") ? `${ids}-command-error` : undefined}
          />
          {problemText("command")}
        </div>
        <div className="field">
          <label htmlFor={`${ids}-env`}>{t("settings.profiles.envLabel")}</label>
          <textarea
            id={`${ids}-env`}
            data-testid="profile-env"
            value={fields.env}
            onChange={set("env")}
            placeholder={t("settings.profiles.envPlaceholder")}
            rows={3}
            spellCheck={false}
            aria-invalid={invalid("env") || undefined}
            aria-describedby={invalid("env") ? `${ids}-env-error` : undefined}
          />
          {problemText("env")}
        </div>
      </div>
      <div className="profile-form__actions">
        {add.isSuccess ? (
          <p className="profile-form__ok" role="status" data-testid="profile-added">
            {t("settings.profiles.added", { name: add.data.name })}
          </p>
        ) : null}
        {serverError ? (
          <p className="field__error" role="alert">
            {t("settings.profiles.failed", { message: serverError })}
          </p>
        ) : null}
        <button type="submit" className="button button--primary" disabled={add.isPending} data-testid="profile-submit">
          {add.isPending ? t("common.saving") : t("settings.profiles.submit")}
        </button>
      </div>
    </form>
  );
}
