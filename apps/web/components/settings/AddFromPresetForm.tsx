"use client";
import { useEffect, useId, useMemo, useState, type FormEvent } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { AgentProfile } from "@kandev/protocol";
import { useTranslation } from "react-i18next";
import { ApiRequestError, api } from "../../lib/api";
import { useAgentPresets } from "../../lib/queries";
import { queryKeys } from "../../lib/query-keys";
import {
  describeFailure,
  emptyPresetForm,
  fieldErrors,
  presetBody,
  presetView,
  type PresetFailure,
  type PresetField,
  type PresetFormProblem,
  type PresetFormState,
  type RequestFailure,
} from "../../lib/settings/preset-form";
import { PresetFields, controlId } from "./PresetFields";
import { PresetOption } from "./PresetOption";

function requestFailure(err: Error): RequestFailure {
  return err instanceof ApiRequestError
    ? { status: err.status, code: err.code, message: err.message, fieldProblems: err.fieldProblems() }
    : { status: 0, code: "UNKNOWN", message: err.message, fieldProblems: [] };
}

/**
 * Adds an agent profile from one of the board's presets (`POST /api/v1/agent-profiles/from-preset`):
 * the operator picks the agent and gives its keys; the command comes from the preset. On failure
 * everything typed stays; on success the keys are cleared and the profile list is refreshed.
 */
export function AddFromPresetForm() {
  const { t } = useTranslation();
  const ids = useId();
  const queryClient = useQueryClient();
  const presets = useAgentPresets();
  const [form, setForm] = useState<PresetFormState>(emptyPresetForm);
  const [problems, setProblems] = useState<PresetFormProblem[]>([]);
  const [failure, setFailure] = useState<PresetFailure | null>(null);
  const [edited, setEdited] = useState<ReadonlySet<PresetField>>(new Set());
  // Bumped after a refused submit so the first marked control takes the focus.
  const [focusTick, setFocusTick] = useState(0);

  const create = useMutation({
    mutationFn: api.createProfileFromPreset,
    onSuccess: (profile) => {
      queryClient.setQueryData<AgentProfile[]>(queryKeys.agentProfiles(), (old) =>
        old ? [...old.filter((p) => p.id !== profile.id), profile] : [profile],
      );
      void queryClient.invalidateQueries({ queryKey: queryKeys.agentProfiles() });
      setForm((f) => ({ ...emptyPresetForm(), presetId: f.presetId }));
    },
    onError: (err, body) => {
      setFailure(describeFailure(requestFailure(err), body));
      setFocusTick((n) => n + 1);
    },
  });

  const views = useMemo(() => (presets.data ?? []).map(presetView), [presets.data]);
  const selected = views.find((v) => v.id === form.presetId);
  const errors = fieldErrors(problems, failure, edited);
  const firstError = [...errors.keys()][0];
  const presetError = errors.get("preset");

  // biome-ignore lint/correctness/useExhaustiveDependencies: firstError is read, not watched: only a new refusal (focusTick) moves the focus, never a re-render while the operator types.
  useEffect(() => {
    if (focusTick === 0 || firstError === undefined) return;
    const target =
      firstError === "preset"
        ? document.querySelector<HTMLInputElement>(`input[name="${ids}-preset"]`)
        : document.getElementById(controlId(ids, firstError));
    target?.focus();
  }, [focusTick, ids]);

  const touch = (field: PresetField) => setEdited((s) => (s.has(field) ? s : new Set(s).add(field)));
  const select = (presetId: string) => {
    setForm((f) => ({ ...f, presetId }));
    setProblems([]);
    setFailure(null);
    create.reset();
  };

  function submit(e: FormEvent) {
    e.preventDefault();
    const result = presetBody(form, presets.data ?? []);
    setEdited(new Set());
    setFailure(null);
    if ("problems" in result) {
      setProblems(result.problems);
      setFocusTick((n) => n + 1);
      return;
    }
    setProblems([]);
    create.mutate(result.body);
  }

  const alert = (() => {
    switch (failure?.kind) {
      case undefined:
        return null;
      case "duplicate":
        return t("settings.presets.failedDuplicate", { id: failure.id });
      case "network":
        return t("settings.presets.failedNetwork");
      case "validation":
        return [t("settings.presets.failedValidation"), ...failure.other].join(" ");
      case "other":
        return t("settings.presets.failed", { message: failure.message });
      default: {
        const never: never = failure;
        return never;
      }
    }
  })();

  return (
    <form className="profile-form" onSubmit={submit} noValidate aria-labelledby={`${ids}-title`} data-testid="preset-form">
      <div className="preset-picker__head">
        <h3 className="profile-form__title" id={`${ids}-title`}>
          {t("settings.presets.heading")}
        </h3>
        <button
          type="button"
          className="button button--ghost"
          onClick={() => void presets.refetch()}
          disabled={presets.isFetching}
          data-testid="preset-recheck"
        >
          {presets.isFetching ? t("settings.presets.checking") : t("settings.presets.recheck")}
        </button>
      </div>
      <p className="muted preset-picker__intro">{t("settings.presets.intro")}</p>
      {presets.isPending ? <p className="muted">{t("settings.presets.loading")}</p> : null}
      {presets.isError ? (
        <p className="banner banner--error" role="alert">
          {t("settings.presets.loadFailed", { message: presets.error.message })}
        </p>
      ) : null}
      {presets.data && views.length === 0 ? <p className="muted">{t("settings.presets.empty")}</p> : null}
      {views.length > 0 ? (
        <fieldset className="preset-list" aria-describedby={presetError ? `${controlId(ids, "preset")}-error` : undefined}>
          <legend className="sr-only">{t("settings.presets.legend")}</legend>
          {views.map((v) => (
            <PresetOption
              key={v.id}
              view={v}
              inputId={`${ids}-preset-${v.id}`}
              group={`${ids}-preset`}
              checked={v.id === form.presetId}
              onSelect={select}
            />
          ))}
        </fieldset>
      ) : null}
      {presetError ? (
        <p className="field__error" id={`${controlId(ids, "preset")}-error`} data-testid="preset-error-preset">
          {"text" in presetError ? t("errors.fieldInvalid", { message: presetError.text }) : t("settings.presets.presetMissing")}
        </p>
      ) : null}
      {selected ? (
        <>
          <PresetFields
            view={selected}
            form={form}
            errors={errors}
            prefix={ids}
            onText={(field, value) => {
              setForm((f) => ({ ...f, [field]: value }));
              touch(field);
            }}
            onEnv={(key, value) => {
              setForm((f) => ({ ...f, env: { ...f.env, [key]: value } }));
              touch(`env.${key}`);
            }}
          />
          <div className="profile-form__actions">
            {create.isSuccess ? (
              <p className="profile-form__ok" role="status" data-testid="preset-added">
                {t("settings.presets.added", { name: create.data.name })}
              </p>
            ) : null}
            {alert ? (
              <p className="field__error" role="alert" data-testid="preset-failed">
                {alert}
              </p>
            ) : null}
            <button type="submit" className="button button--primary" disabled={create.isPending} data-testid="preset-submit">
              {create.isPending ? t("settings.presets.adding") : t("settings.presets.submit", { name: selected.name })}
            </button>
          </div>
        </>
      ) : null}
    </form>
  );
}
