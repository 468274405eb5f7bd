"use client";
import { useId } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import type { ConfigValue, Session, SessionConfigOption } from "@kandev/protocol";
import { ApiRequestError, api } from "../../lib/api";
import { queryKeys } from "../../lib/query-keys";
import { say } from "../../lib/say";
import { serverErrorWords } from "../../lib/server-errors";

/** True while the session's agent is up and can take a change now (the API answers 409 otherwise). */
function canChange(session: Session): boolean {
  return !session.ended && session.acp_session_id !== null && session.agent_status !== "closed" && session.state !== "STARTING";
}

function ErrorLine({ error, testId }: { error: Error; testId: string }) {
  const { t } = useTranslation();
  const text =
    error instanceof ApiRequestError && error.code === "AGENT_ERROR"
      ? t("task.settings.agentRefused", { message: error.message })
      : say(t, serverErrorWords(error));
  return (
    <p className="field__error" role="alert" data-testid={testId}>
      {text}
    </p>
  );
}

/**
 * The session's mode switcher (`session-mode`) and one selector per config option
 * (`session-config-<id>`, the model typically), as the agent offers them. A change goes to the
 * agent and shows once it answered (session.updated); a refusal says the agent's words.
 */
export function SessionControls({ session }: { session: Session }) {
  const { t } = useTranslation();
  const ids = useId();
  const queryClient = useQueryClient();
  const enabled = canChange(session);
  const mode = useMutation({
    mutationFn: (modeId: string) => api.setSessionMode(session.id, modeId),
    onSuccess: (s) => queryClient.setQueryData(queryKeys.session(s.id), s),
  });
  const option = useMutation({
    mutationFn: ({ id, value }: { id: string; value: ConfigValue }) => api.setSessionConfigOption(session.id, id, value),
    onSuccess: ({ config_options }) =>
      queryClient.setQueryData<Session>(queryKeys.session(session.id), (old) => (old ? { ...old, config_options } : old)),
  });
  const modes = session.modes;
  // The mode switcher already covers an option of category "mode" (the Claude bridge sends both).
  const options = (session.config_options ?? []).filter((o) => !(modes !== null && o.category === "mode"));
  if ((modes === null || modes.available_modes.length === 0) && options.length === 0) return null;
  const hint = enabled ? undefined : t("task.settings.notLive");

  return (
    <div className="session-controls" data-testid="session-controls">
      {modes !== null && modes.available_modes.length > 0 ? (
        <label className="session-controls__field" htmlFor={`${ids}-mode`}>
          <span className="session-controls__label">{t("task.settings.mode")}</span>
          <select
            id={`${ids}-mode`}
            data-testid="session-mode"
            value={modes.current_mode_id}
            disabled={!enabled || mode.isPending}
            title={hint ?? modes.available_modes.find((m) => m.id === modes.current_mode_id)?.description}
            onChange={(e) => mode.mutate(e.target.value)}
          >
            {modes.available_modes.some((m) => m.id === modes.current_mode_id) ? null : (
              <option value={modes.current_mode_id}>{modes.current_mode_id}</option>
            )}
            {modes.available_modes.map((m) => (
              <option key={m.id} value={m.id} title={m.description}>
                {m.name}
              </option>
            ))}
          </select>
        </label>
      ) : null}
      {options.map((o) => (
        <ConfigSelector
          key={o.id}
          option={o}
          disabled={!enabled || option.isPending}
          hint={hint}
          onChange={(value) => option.mutate({ id: o.id, value })}
        />
      ))}
      {mode.isError ? <ErrorLine error={mode.error} testId="session-mode-error" /> : null}
      {option.isError ? <ErrorLine error={option.error} testId="session-config-error" /> : null}
    </div>
  );
}

function ConfigSelector({
  option,
  disabled,
  hint,
  onChange,
}: {
  option: SessionConfigOption;
  disabled: boolean;
  hint: string | undefined;
  onChange: (value: ConfigValue) => void;
}) {
  const { t } = useTranslation();
  const ids = useId();
  const testId = `session-config-${option.id}`;
  const title = hint ?? option.description;
  if (option.type === "boolean") {
    return (
      <label className="session-controls__field session-controls__field--check" htmlFor={`${ids}-opt`} title={title}>
        <input
          id={`${ids}-opt`}
          type="checkbox"
          data-testid={testId}
          checked={option.current_value === true}
          disabled={disabled}
          onChange={(e) => onChange(e.target.checked)}
        />
        <span className="session-controls__label">{option.name}</span>
      </label>
    );
  }
  const choices = option.options ?? [];
  const current = String(option.current_value);
  return (
    <label className="session-controls__field" htmlFor={`${ids}-opt`}>
      <span className="session-controls__label">{option.name}</span>
      <select
        id={`${ids}-opt`}
        data-testid={testId}
        value={current}
        // Another type than select/boolean is shown, not set: the board cannot say its values.
        disabled={disabled || option.type !== "select"}
        title={title ?? (option.type !== "select" ? t("task.settings.readOnly") : undefined)}
        onChange={(e) => onChange(e.target.value)}
      >
        {choices.some((c) => c.value === current) ? null : <option value={current}>{current}</option>}
        {choices.map((c) => (
          <option key={c.value} value={c.value} title={c.description}>
            {c.name}
          </option>
        ))}
      </select>
    </label>
  );
}
