"use client";
import { useTranslation } from "react-i18next";
import { useAgentProfiles } from "../../lib/queries";
import { AddFromPresetForm } from "./AddFromPresetForm";
import { AddProfileForm } from "./AddProfileForm";
import { useCan } from "../auth/AuthContext";
import { AgentProfileRow } from "./AgentProfileRow";
import { SettingsSection } from "./SettingsSection";

export function AgentProfilesSection() {
  const { t } = useTranslation();
  const profiles = useAgentProfiles();
  const mayManage = useCan("manage_agent_profiles");
  return (
    <SettingsSection id="profiles" title={t("settings.profiles.heading")} description={t("settings.profiles.description")}>
      {profiles.isPending ? <p className="muted">{t("common.loading")}</p> : null}
      {profiles.isError ? (
        <p className="banner banner--error" role="alert">
          {t("settings.loadFailed", { message: profiles.error.message })}
        </p>
      ) : null}
      {profiles.data && profiles.data.length === 0 ? <p className="muted">{t("settings.profiles.empty")}</p> : null}
      {profiles.data && profiles.data.length > 0 ? (
        <ul className="settings-list">
          {profiles.data.map((p) => (
            <AgentProfileRow key={p.id} profile={p} />
          ))}
        </ul>
      ) : null}
      {mayManage ? (
        <>
          <AddFromPresetForm />
          <AddProfileForm />
        </>
      ) : null}
    </SettingsSection>
  );
}
