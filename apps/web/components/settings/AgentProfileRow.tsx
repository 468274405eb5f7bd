"use client";
import type { AgentProfile } from "@kandev/protocol";
import { useTranslation } from "react-i18next";

/** One agent profile. Environment values can be secrets, so only their names are shown. */
export function AgentProfileRow({ profile }: { profile: AgentProfile }) {
  const { t } = useTranslation();
  const envKeys = Object.keys(profile.env ?? {});
  return (
    <li className="profile" data-testid={`profile-${profile.id}`}>
      <div className="profile__head">
        <p className="profile__name">{profile.name}</p>
        <code className="profile__id">{profile.id}</code>
        {profile.builtin ? <span className="pill">{t("settings.profiles.builtin")}</span> : null}
      </div>
      <dl className="profile__facts">
        <div>
          <dt>{t("settings.profiles.command")}</dt>
          <dd>
            <code data-testid={`profile-command-${profile.id}`}>{profile.command.join(" ")}</code>
          </dd>
        </div>
        {envKeys.length > 0 ? (
          <div>
            <dt>{t("settings.profiles.env")}</dt>
            <dd data-testid={`profile-env-${profile.id}`}>
              {envKeys.map((k) => (
                <code key={k} className="profile__env">
                  {k}
                </code>
              ))}
            </dd>
          </div>
        ) : null}
        {profile.cwd ? (
          <div>
            <dt>{t("settings.profiles.cwd")}</dt>
            <dd>
              <code>{profile.cwd}</code>
            </dd>
          </div>
        ) : null}
      </dl>
    </li>
  );
}
