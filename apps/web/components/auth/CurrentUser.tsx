"use client";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useAuth } from "./AuthContext";

/** The signed-in user and a way to sign out; nothing at all on a board without sign-in. */
export function CurrentUser() {
  const { t } = useTranslation();
  const { enabled, user, logout } = useAuth();
  const [leaving, setLeaving] = useState(false);
  if (enabled !== true || user === null) return null;
  return (
    <div className="current-user">
      <span className="current-user__name" data-testid="current-user" title={t(`auth.roles.${user.role}`)}>
        {user.username}
      </span>
      <button
        type="button"
        className="button button--ghost"
        data-testid="auth-logout"
        disabled={leaving}
        onClick={() => {
          setLeaving(true);
          void logout();
        }}
      >
        {t("auth.logout")}
      </button>
    </div>
  );
}
