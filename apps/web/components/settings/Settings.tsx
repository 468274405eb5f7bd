"use client";
import { useTranslation } from "react-i18next";
import { useDocumentTitle } from "../../lib/use-document-title";
import { can } from "../../lib/auth/permissions";
import { useAuth } from "../auth/AuthContext";
import { AccountSection } from "./AccountSection";
import { AgentProfilesSection } from "./AgentProfilesSection";
import { ApiTokensSection } from "./ApiTokensSection";
import { NotificationSettingsSection } from "./NotificationSettingsSection";
import { RepositoriesSection } from "./RepositoriesSection";
import { RuntimeFlagsSection } from "./RuntimeFlagsSection";
import { UsersSection } from "./UsersSection";

/**
 * The Settings page: runtime flags, agent profiles, repositories and notification preferences; with
 * sign-in on also users (admins), API tokens and the signed-in account.
 */
export function Settings() {
  const { t } = useTranslation();
  const { enabled, user } = useAuth();
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
      {enabled === true && user !== null ? (
        <>
          {can(user.role, "manage_users") ? <UsersSection me={user} /> : null}
          <ApiTokensSection me={user} />
          <AccountSection me={user} />
        </>
      ) : null}
    </div>
  );
}
