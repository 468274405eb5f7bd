"use client";
import { useTranslation } from "react-i18next";
import { useRuntimeFlags } from "../../lib/queries";
import { RuntimeFlagRow } from "./RuntimeFlagRow";
import { SettingsSection } from "./SettingsSection";

export function RuntimeFlagsSection() {
  const { t } = useTranslation();
  const flags = useRuntimeFlags();
  return (
    <SettingsSection id="flags" title={t("settings.flags.heading")} description={t("settings.flags.description")}>
      {flags.isPending ? <p className="muted">{t("common.loading")}</p> : null}
      {flags.isError ? (
        <p className="banner banner--error" role="alert">
          {t("settings.loadFailed", { message: flags.error.message })}
        </p>
      ) : null}
      {flags.data ? (
        <ul className="settings-list">
          {flags.data.map((f) => (
            <RuntimeFlagRow key={f.key} flag={f} />
          ))}
        </ul>
      ) : null}
    </SettingsSection>
  );
}
