"use client";
import { useTranslation } from "react-i18next";
import type { PresetView } from "../../lib/settings/preset-form";

/**
 * One preset as a radio choice: the whole card selects it, the radio's name is the preset's name and
 * the rest (availability, description, command, why it is missing) is its description.
 */
export function PresetOption({
  view,
  inputId,
  group,
  checked,
  onSelect,
}: {
  view: PresetView;
  inputId: string;
  group: string;
  checked: boolean;
  onSelect: (id: string) => void;
}) {
  const { t } = useTranslation();
  const part = (name: string) => `${inputId}-${name}`;
  const described = [part("status"), part("desc"), part("command"), ...(view.available ? [] : [part("why")])].join(" ");
  return (
    <label
      className={`preset${checked ? " preset--checked" : ""}`}
      htmlFor={inputId}
      data-testid={`preset-${view.id}`}
      data-available={view.available ? "true" : "false"}
    >
      <input
        type="radio"
        id={inputId}
        name={group}
        value={view.id}
        checked={checked}
        onChange={() => onSelect(view.id)}
        aria-labelledby={part("name")}
        aria-describedby={described}
        data-testid={`preset-radio-${view.id}`}
      />
      <span className="preset__body">
        <span className="preset__head">
          <span className="preset__name" id={part("name")}>
            {view.name}
          </span>
          <span
            className={`pill preset__status preset__status--${view.available ? "found" : "missing"}`}
            id={part("status")}
            data-testid={`preset-status-${view.id}`}
          >
            {view.available ? t("settings.presets.available") : t("settings.presets.unavailable")}
          </span>
        </span>
        <span className="preset__desc" id={part("desc")}>
          {view.description}
        </span>
        <span className="preset__command" id={part("command")}>
          <span className="sr-only">{t("settings.presets.command")} </span>
          <code data-testid={`preset-command-${view.id}`}>{view.commandText}</code>
        </span>
        {view.available ? null : (
          <span className="preset__why" id={part("why")} data-testid={`preset-why-${view.id}`}>
            {view.reason ? <span>{t("settings.presets.reason", { reason: view.reason })}</span> : null}
            {view.installHint ? <span>{t("settings.presets.installHint", { hint: view.installHint })}</span> : null}
          </span>
        )}
      </span>
    </label>
  );
}
