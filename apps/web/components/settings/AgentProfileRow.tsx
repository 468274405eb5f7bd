"use client";
import { useState } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { AgentProfile } from "@kandev/protocol";
import { useTranslation } from "react-i18next";
import { api } from "../../lib/api";
import { queryKeys } from "../../lib/query-keys";
import { say } from "../../lib/say";
import { serverErrorWords } from "../../lib/server-errors";
import { formatCommand } from "../../lib/settings/preset-form";
import { useCan } from "../auth/AuthContext";
import { EditProfileForm } from "./EditProfileForm";

/**
 * One agent profile, with what keeps it from starting here (its command or working directory), and
 * Edit / Delete for the ones the operator added. Environment values can be secrets: only names.
 */
export function AgentProfileRow({ profile }: { profile: AgentProfile }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const mayManage = useCan("manage_agent_profiles");
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const remove = useMutation({
    mutationFn: () => api.deleteAgentProfile(profile.id),
    onSuccess: () => queryClient.setQueryData<AgentProfile[]>(queryKeys.agentProfiles(), (old) => old?.filter((p) => p.id !== profile.id)),
  });
  const envKeys = Object.keys(profile.env ?? {});
  const command = formatCommand(profile.command.slice(0, 1));
  const cwd = profile.cwd ?? "";

  if (editing && mayManage) {
    return (
      <li className="profile" data-testid={`profile-${profile.id}`}>
        <EditProfileForm profile={profile} onDone={() => setEditing(false)} />
      </li>
    );
  }
  return (
    <li className="profile" data-testid={`profile-${profile.id}`}>
      <div className="profile__head">
        <p className="profile__name">{profile.name}</p>
        <code className="profile__id">{profile.id}</code>
        {profile.builtin ? <span className="pill">{t("settings.profiles.builtin")}</span> : null}
        {profile.builtin || !mayManage ? null : (
          <span className="profile__actions">
            <button
              type="button"
              className="button button--ghost button--small"
              data-testid={`profile-edit-${profile.id}`}
              onClick={() => setEditing(true)}
            >
              {t("settings.profiles.edit")}
            </button>
            <button
              type="button"
              className="button button--ghost button--small"
              data-testid={`profile-delete-${profile.id}`}
              onClick={() => {
                remove.reset();
                setConfirming(true);
              }}
            >
              {t("settings.profiles.delete")}
            </button>
          </span>
        )}
      </div>
      {confirming && mayManage ? (
        <fieldset className="profile__confirm" aria-label={t("settings.profiles.delete")}>
          <span>{t("settings.profiles.deleteConfirm", { name: profile.name })}</span>
          <button
            type="button"
            className="button button--danger button--small"
            data-testid={`profile-delete-confirm-${profile.id}`}
            disabled={remove.isPending}
            onClick={() => remove.mutate()}
          >
            {remove.isPending ? t("settings.profiles.deleting") : t("settings.profiles.deleteYes")}
          </button>
          <button type="button" className="button button--ghost button--small" onClick={() => setConfirming(false)}>
            {t("common.cancel")}
          </button>
          {remove.error ? (
            <p className="field__error" role="alert" data-testid={`profile-delete-error-${profile.id}`}>
              {t("settings.profiles.deleteFailed", { reason: say(t, serverErrorWords(remove.error)) })}
            </p>
          ) : null}
        </fieldset>
      ) : null}
      {profile.problems.length > 0 ? (
        <div className="profile__problems" role="note" data-testid={`profile-problems-${profile.id}`}>
          <p>{t("settings.profiles.problemsHeading")}</p>
          <ul>
            {profile.problems.map((p) => (
              <li key={p.code} data-testid={`profile-problem-${p.code}`}>
                {t(`settings.profiles.problems.${p.code}`, { command, cwd })}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
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
              <code data-testid={`profile-cwd-${profile.id}`}>{profile.cwd}</code>
            </dd>
          </div>
        ) : null}
      </dl>
    </li>
  );
}
