"use client";
import { useId, useState, type FormEvent } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { AgentProfile } from "@kandev/protocol";
import { useTranslation } from "react-i18next";
import { ApiRequestError, api } from "../../lib/api";
import { fieldProblemWords } from "../../lib/field-errors";
import { say } from "../../lib/say";
import { serverErrorWords } from "../../lib/server-errors";
import { type EnvChoice, editState, isMaskedValue, profilePatch } from "../../lib/settings/profile-edit";
import type { FormProblem } from "../../lib/settings/profile-form";
import { queryKeys } from "../../lib/query-keys";
import { ProfileField } from "./ProfileField";

/**
 * Edits one agent profile (PATCH /api/v1/agent-profiles/:id). Environment values are never shown:
 * each variable is kept, replaced with a value typed here, or removed.
 */
export function EditProfileForm({ profile, onDone }: { profile: AgentProfile; onDone: () => void }) {
  const { t } = useTranslation();
  const ids = useId();
  const queryClient = useQueryClient();
  const [state, setState] = useState(() => editState(profile));
  const [problems, setProblems] = useState<FormProblem[]>([]);
  const save = useMutation({
    mutationFn: (body: Parameters<typeof api.updateAgentProfile>[1]) => api.updateAgentProfile(profile.id, body),
    onSuccess: (saved) => {
      queryClient.setQueryData<AgentProfile[]>(queryKeys.agentProfiles(), (old) => old?.map((p) => (p.id === saved.id ? saved : p)));
      onDone();
    },
  });

  function submit(e: FormEvent) {
    e.preventDefault();
    const result = profilePatch(profile, state);
    if ("problems" in result) {
      setProblems(result.problems);
      return;
    }
    setProblems([]);
    save.mutate(result.body);
  }
  const set = (key: "name" | "command" | "cwd" | "added") => (e: { target: { value: string } }) => setState((s) => ({ ...s, [key]: e.target.value }));
  const setEnv = (key: string, choice: EnvChoice) => setState((s) => ({ ...s, env: { ...s.env, [key]: choice } }));

  const serverField = (field: string) =>
    save.error instanceof ApiRequestError ? save.error.fieldProblems().find((p) => p.path === field || p.path.startsWith(`${field}.`)) : undefined;
  const problemText = (field: FormProblem["field"]) => {
    const p = problems.find((x) => x.field === field);
    const server = serverField(field);
    if (!p && !server) return null;
    const text = p
      ? p.kind === "line"
        ? t("settings.profiles.envLine", { line: p.line })
        : say(t, { key: field === "name" ? "validation.nameBlank" : "validation.commandEmpty" })
      : say(t, fieldProblemWords(field, server!));
    return (
      <p className="field__error" id={`${ids}-${field}-error`} data-testid={`edit-profile-${field}-error`}>
        {text}
      </p>
    );
  };
  const general =
    save.error && !(save.error instanceof ApiRequestError && save.error.fieldProblems().length > 0) ? serverErrorWords(save.error) : null;

  return (
    <form className="profile-form profile-form--edit" onSubmit={submit} noValidate data-testid={`edit-profile-form-${profile.id}`}>
      <h3 className="profile-form__title">{t("settings.profiles.editHeading", { name: profile.name })}</h3>
      <div className="profile-form__grid">
        <ProfileField
          id={`${ids}-name`}
          label={t("settings.profiles.name")}
          testId="edit-profile-name"
          value={state.name}
          onChange={set("name")}
          error={problemText("name")}
        />
        <ProfileField id={`${ids}-cwd`} label={t("settings.profiles.cwdLabel")} testId="edit-profile-cwd" value={state.cwd} onChange={set("cwd")} />
        <ProfileField
          id={`${ids}-command`}
          label={t("settings.profiles.commandLabel")}
          testId="edit-profile-command"
          value={state.command}
          onChange={set("command")}
          rows={3}
          error={problemText("command")}
        />
        <ProfileField
          id={`${ids}-added`}
          label={t("settings.profiles.envAddLabel")}
          testId="edit-profile-added"
          value={state.added}
          onChange={set("added")}
          placeholder={t("settings.profiles.envPlaceholder")}
          rows={2}
          error={problemText("env")}
          errorId={`${ids}-env-error`}
        />
      </div>
      {Object.keys(state.env).length > 0 ? (
        <fieldset className="profile-form__env">
          <legend>{t("settings.profiles.envExisting")}</legend>
          {Object.entries(state.env).map(([key, choice]) => (
            <div className="profile-form__env-row" key={key}>
              <code>{key}</code>
              {isMaskedValue(profile.env?.[key]) ? (
                <span className="pill" data-testid={`edit-profile-env-${key}-hidden`}>
                  {t("settings.profiles.envSetHidden")}
                </span>
              ) : null}
              <select
                aria-label={key}
                data-testid={`edit-profile-env-${key}-mode`}
                value={choice.mode}
                onChange={(e) => {
                  const mode = e.target.value;
                  setEnv(key, mode === "replace" ? { mode, value: "" } : mode === "remove" ? { mode } : { mode: "keep" });
                }}
              >
                <option value="keep">{t("settings.profiles.envKeep")}</option>
                <option value="replace">{t("settings.profiles.envReplace")}</option>
                <option value="remove">{t("settings.profiles.envRemove")}</option>
              </select>
              {choice.mode === "replace" ? (
                <input
                  type="password"
                  aria-label={t("settings.profiles.envNewValue", { key })}
                  data-testid={`edit-profile-env-${key}-value`}
                  value={choice.value}
                  onChange={(e) => setEnv(key, { mode: "replace", value: e.target.value })}
                  autoComplete="new-password"
                />
              ) : null}
            </div>
          ))}
        </fieldset>
      ) : null}
      <div className="profile-form__actions">
        {general ? (
          <p className="field__error" role="alert">
            {t("settings.profiles.saveFailed", { reason: say(t, general) })}
          </p>
        ) : null}
        <button type="button" className="button button--ghost" onClick={onDone}>
          {t("common.cancel")}
        </button>
        <button type="submit" className="button button--primary" disabled={save.isPending} data-testid="edit-profile-save">
          {save.isPending ? t("common.saving") : t("settings.profiles.save")}
        </button>
      </div>
    </form>
  );
}
