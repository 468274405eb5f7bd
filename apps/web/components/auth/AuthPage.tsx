"use client";
import { useId, useState, type FormEvent } from "react";
import { useMutation } from "@tanstack/react-query";
import { PASSWORD_MIN_LENGTH } from "@kandev/protocol";
import { useTranslation } from "react-i18next";
import { ApiRequestError, api } from "../../lib/api";
import { signInProblem } from "../../lib/auth/auth-view";
import { passwordProblem } from "../../lib/auth/password-rule";
import { LanguageSwitcher } from "../LanguageSwitcher";

/**
 * The first-run form (creates the first admin, POST /auth/setup) or the login form (POST
 * /auth/login), shown in place of the app. A wrong name or password gets one message; a rate limit
 * says how long to wait.
 */
export function AuthPage({ mode, onSignedIn }: { mode: "setup" | "login"; onSignedIn: () => void }) {
  const { t } = useTranslation();
  const ids = useId();
  const [username, setUsername] = useState("");
  const [password, setPassword] = useState("");
  const [tooShort, setTooShort] = useState(false);
  const submit = useMutation({
    meta: { expectsUnauthorized: true },
    mutationFn: () => (mode === "setup" ? api.setup({ username: username.trim(), password }) : api.login({ username: username.trim(), password })),
    onSuccess: onSignedIn,
  });
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (submit.isPending || username.trim() === "" || password === "") return;
    const short = mode === "setup" && passwordProblem(password) !== null;
    setTooShort(short);
    if (!short) submit.mutate();
  };
  const err = submit.error instanceof ApiRequestError ? submit.error : submit.error ? new ApiRequestError(0, "NETWORK", submit.error.message) : null;
  const problem = tooShort
    ? t("auth.passwordTooShort", { min: PASSWORD_MIN_LENGTH })
    : err === null
      ? null
      : err.code === "VALIDATION_ERROR"
        ? t("auth.passwordTooShort", { min: PASSWORD_MIN_LENGTH })
        : mode === "setup" && err.status === 409
          ? t("auth.setupDone")
          : (() => {
              const words = signInProblem(err);
              return words === null ? null : words.values ? t(words.key, words.values) : t(words.key);
            })();
  return (
    <main id="main" className="main auth-page">
      <form className="auth-card" onSubmit={onSubmit} noValidate data-testid={mode === "setup" ? "auth-setup-form" : "auth-login-form"}>
        <div className="auth-card__head">
          <p className="brand__name">{t("common.appName")}</p>
          <LanguageSwitcher />
        </div>
        <h1 className="auth-card__title">{mode === "setup" ? t("auth.setupTitle") : t("auth.loginTitle")}</h1>
        <p className="muted">{mode === "setup" ? t("auth.setupIntro") : t("auth.loginIntro")}</p>
        <div className="field">
          <label htmlFor={`${ids}-username`}>{t("auth.username")}</label>
          <input
            id={`${ids}-username`}
            data-testid="auth-username"
            value={username}
            onChange={(e) => setUsername(e.target.value)}
            autoComplete="username"
            // biome-ignore lint/a11y/noAutofocus: the only thing to do on this page is to sign in.
            autoFocus
          />
        </div>
        <div className="field">
          <label htmlFor={`${ids}-password`}>{t("auth.password")}</label>
          <input
            id={`${ids}-password`}
            type="password"
            data-testid="auth-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            autoComplete={mode === "setup" ? "new-password" : "current-password"}
            aria-invalid={problem !== null || undefined}
            aria-describedby={problem !== null ? `${ids}-error` : undefined}
          />
          {mode === "setup" ? <p className="field__hint">{t("auth.passwordHint", { min: PASSWORD_MIN_LENGTH })}</p> : null}
        </div>
        {problem !== null ? (
          <p className="field__error" role="alert" id={`${ids}-error`} data-testid="auth-error">
            {problem}
          </p>
        ) : null}
        <button
          type="submit"
          className="button button--primary"
          data-testid="auth-submit"
          disabled={submit.isPending || submit.isSuccess || username.trim() === "" || password === ""}
        >
          {submit.isPending || submit.isSuccess ? t("auth.signingIn") : mode === "setup" ? t("auth.createAdmin") : t("auth.signIn")}
        </button>
      </form>
    </main>
  );
}
