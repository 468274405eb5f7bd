"use client";
import { useId, useState, type FormEvent } from "react";
import { useMutation } from "@tanstack/react-query";
import { PASSWORD_MIN_LENGTH, type Me } from "@kandev/protocol";
import { useTranslation } from "react-i18next";
import { ApiRequestError, api } from "../../lib/api";
import { passwordProblem } from "../../lib/auth/password-rule";
import { SettingsSection } from "./SettingsSection";

/** Settings -> Your account: who is signed in, and changing one's own password. */
export function AccountSection({ me }: { me: Me }) {
  const { t } = useTranslation();
  const ids = useId();
  const [current, setCurrent] = useState("");
  const [next, setNext] = useState("");
  const [tooShort, setTooShort] = useState(false);
  const change = useMutation({
    mutationFn: () => api.changeOwnPassword({ current_password: current, new_password: next }),
    meta: { expectsUnauthorized: true },
    onSuccess: () => {
      setCurrent("");
      setNext("");
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (change.isPending || current === "") return;
    const short = passwordProblem(next) !== null;
    setTooShort(short);
    if (!short) change.mutate();
  };
  const err = change.error;
  const problem = tooShort
    ? t("auth.passwordTooShort", { min: PASSWORD_MIN_LENGTH })
    : err instanceof ApiRequestError && (err.status === 401 || err.status === 403)
      ? t("auth.account.wrongCurrent")
      : err
        ? t("auth.account.failed", { message: err.message })
        : null;
  return (
    <SettingsSection
      id="account"
      title={t("auth.account.heading")}
      description={t("auth.account.description", { user: me.username, role: t(`auth.roles.${me.role}`) })}
    >
      <form className="user-add" onSubmit={submit} noValidate data-testid="account-password-form">
        <div className="field">
          <label htmlFor={`${ids}-current`}>{t("auth.account.current")}</label>
          <input
            id={`${ids}-current`}
            type="password"
            data-testid="account-current-password"
            value={current}
            onChange={(e) => setCurrent(e.target.value)}
            autoComplete="current-password"
          />
        </div>
        <div className="field">
          <label htmlFor={`${ids}-next`}>{t("auth.account.next")}</label>
          <input
            id={`${ids}-next`}
            type="password"
            data-testid="account-new-password"
            value={next}
            onChange={(e) => setNext(e.target.value)}
            autoComplete="new-password"
            aria-invalid={tooShort || undefined}
          />
        </div>
        <button type="submit" className="button button--primary" data-testid="account-change-password" disabled={change.isPending || current === ""}>
          {change.isPending ? t("auth.account.changing") : t("auth.account.change")}
        </button>
        {problem !== null ? (
          <p className="field__error" role="alert" data-testid="account-password-error">
            {problem}
          </p>
        ) : change.isSuccess ? (
          <p className="muted" role="status" data-testid="account-password-changed">
            {t("auth.account.changed")}
          </p>
        ) : null}
      </form>
    </SettingsSection>
  );
}
