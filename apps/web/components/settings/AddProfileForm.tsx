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
import { ProfileField } from "./ProfileField";

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
  const set = (key: keyof typeof fields) => (e: { target: { value: string } }) => setFields((f) => ({ ...f, [key]: e.target.value }));
  const serverError = add.error ? say(t, serverErrorWords(add.error)) : null;

  return (
    <form className="profile-form" onSubmit={submit} noValidate data-testid="add-profile-form">
      <h3 className="profile-form__title">{t("settings.profiles.add")}</h3>
      <div className="profile-form__grid">
        <ProfileField
          id={`${ids}-name`}
          label={t("settings.profiles.name")}
          testId="profile-name"
          value={fields.name}
          onChange={set("name")}
          placeholder={t("settings.profiles.namePlaceholder")}
          error={problemText("name")}
        />
        <ProfileField id={`${ids}-cwd`} label={t("settings.profiles.cwdLabel")} testId="profile-cwd" value={fields.cwd} onChange={set("cwd")} />
        <ProfileField
          id={`${ids}-command`}
          label={t("settings.profiles.commandLabel")}
          testId="profile-command"
          value={fields.command}
          onChange={set("command")}
          placeholder={t("settings.profiles.commandPlaceholder")}
          rows={3}
          error={problemText("command")}
        />
        <ProfileField
          id={`${ids}-env`}
          label={t("settings.profiles.envLabel")}
          testId="profile-env"
          value={fields.env}
          onChange={set("env")}
          placeholder={t("settings.profiles.envPlaceholder")}
          rows={3}
          error={problemText("env")}
        />
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
