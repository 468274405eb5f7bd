"use client";
import { useTranslation } from "react-i18next";
import type { FieldError, PresetField, PresetFormState, PresetView } from "../../lib/settings/preset-form";

/** The DOM id of a control, so labels, error messages and "focus the first problem" agree. */
export const controlId = (prefix: string, field: PresetField) => `${prefix}-${field.replace(".", "-")}`;

type TextField = "id" | "name" | "cwd";

/**
 * The chosen preset's fields: optional id, name and working directory, and one password field per
 * environment variable the agent needs. Values of those are never rendered anywhere but the field.
 */
export function PresetFields({
  view,
  form,
  errors,
  prefix,
  onText,
  onEnv,
}: {
  view: PresetView;
  form: PresetFormState;
  errors: Map<PresetField, FieldError>;
  prefix: string;
  onText: (field: TextField, value: string) => void;
  onEnv: (key: string, value: string) => void;
}) {
  const { t } = useTranslation();
  const message = (field: PresetField) => {
    const e = errors.get(field);
    if (!e) return null;
    const text =
      "text" in e
        ? t("errors.fieldInvalid", { message: e.text })
        : {
            presetMissing: t("settings.presets.presetMissing"),
            idFormat: t("settings.presets.idFormat"),
            idTaken: t("settings.presets.idTaken"),
            envControl: t("settings.presets.envControl"),
          }[e.key];
    return (
      <p className="field__error" id={`${controlId(prefix, field)}-error`} data-testid={`preset-error-${field}`}>
        {text}
      </p>
    );
  };
  /** aria attributes tying a control to its help and error lines. */
  const aria = (field: PresetField, help?: string) => {
    const describedBy = [help, errors.has(field) ? `${controlId(prefix, field)}-error` : undefined].filter(Boolean).join(" ");
    return { "aria-invalid": errors.has(field) || undefined, "aria-describedby": describedBy || undefined };
  };
  const text = (field: TextField, label: string, placeholder?: string, help?: string) => (
    <div className="field">
      <label htmlFor={controlId(prefix, field)}>{label}</label>
      <input
        id={controlId(prefix, field)}
        data-testid={`preset-${field}`}
        value={form[field]}
        onChange={(e) => onText(field, e.target.value)}
        placeholder={placeholder}
        autoComplete="off"
        spellCheck={false}
        {...aria(field, help ? `${controlId(prefix, field)}-help` : undefined)}
      />
      {help ? (
        <p className="field__help muted" id={`${controlId(prefix, field)}-help`}>
          {help}
        </p>
      ) : null}
      {message(field)}
    </div>
  );

  return (
    <div className="preset-fields" data-testid="preset-fields">
      {view.available ? null : (
        <p className="preset-fields__note" role="note" data-testid="preset-unavailable-note">
          {t("settings.presets.unavailableNote", { name: view.name })}
          {view.installHint ? ` ${t("settings.presets.installHint", { hint: view.installHint })}` : null}
        </p>
      )}
      <div className="profile-form__grid">
        {text("id", t("settings.presets.idLabel"), undefined, t("settings.presets.idHelp"))}
        {text("name", t("settings.presets.nameLabel"), view.name)}
        {text("cwd", t("settings.presets.cwdLabel"))}
      </div>
      <fieldset className="preset-fields__env" aria-describedby={`${prefix}-env-help`}>
        <legend>{t("settings.presets.envLegend")}</legend>
        <p className="field__help muted" id={`${prefix}-env-help`}>
          {view.envHints.length > 0 ? t("settings.presets.envHelp") : t("settings.presets.noEnv")}
        </p>
        <div className="profile-form__grid">
          {view.envHints.map((key) => {
            const field = `env.${key}` as const;
            return (
              <div className="field" key={key}>
                <label htmlFor={controlId(prefix, field)}>
                  <code>{key}</code>
                </label>
                <input
                  id={controlId(prefix, field)}
                  type="password"
                  data-testid={`preset-env-${key}`}
                  value={form.env[key] ?? ""}
                  onChange={(e) => onEnv(key, e.target.value)}
                  // "new-password": the browser must not fill in a saved site password here.
                  autoComplete="new-password"
                  spellCheck={false}
                  {...aria(field)}
                />
                {message(field)}
              </div>
            );
          })}
        </div>
      </fieldset>
    </div>
  );
}
