"use client";
import { useTranslation } from "react-i18next";
import { useDocumentTitle } from "../../lib/use-document-title";
import { AgentProfilesSection } from "./AgentProfilesSection";
import { NotificationSettingsSection } from "./NotificationSettingsSection";
import { RepositoriesSection } from "./RepositoriesSection";
import { RuntimeFlagsSection } from "./RuntimeFlagsSection";

/** The Settings page: runtime flags, agent profiles, repositories and notification preferences. */
export function Settings() {
  const { t } = useTranslation();
  useDocumentTitle(`${t("settings.title")} · ${t("common.appName")}`);
  return (
    <div className="settings" data-testid="settings-page">
      <div className="page-head">
        <div>
          <h1 className="page-head__title">{t("settings.title")}</h1>
          <p className="page-head__subtitle">{t("settings.subtitle")}</p>
        </div>
      </div>
      <RuntimeFlagsSection />
      <AgentProfilesSection />
      <RepositoriesSection />
      <NotificationSettingsSection />
    </div>
  );
}
