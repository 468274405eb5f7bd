"use client";
import { useId, useState, type FormEvent } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { PASSWORD_MIN_LENGTH, type Me, type User, type Role } from "@kandev/protocol";
import { useTranslation } from "react-i18next";
import { api } from "../../lib/api";
import { passwordProblem } from "../../lib/auth/password-rule";
import { queryKeys } from "../../lib/query-keys";
import { SettingsSection } from "./SettingsSection";

/** Settings -> Users (admins only): who may sign in, with which role; add, delete, set a password. */
export function UsersSection({ me }: { me: Me }) {
  const { t } = useTranslation();
  const users = useQuery({ queryKey: queryKeys.users(), queryFn: ({ signal }) => api.listUsers(signal) });
  return (
    <SettingsSection id="users" title={t("auth.users.heading")} description={t("auth.users.description")}>
      {users.isPending ? <p className="muted">{t("common.loading")}</p> : null}
      {users.isError ? (
        <p className="banner banner--error" role="alert">
          {t("settings.loadFailed", { message: users.error.message })}
        </p>
      ) : null}
      {users.data && users.data.length === 0 ? <p className="muted">{t("auth.users.empty")}</p> : null}
      {users.data && users.data.length > 0 ? (
        <ul className="settings-list">
          {users.data.map((u) => (
            <UserRow key={u.id} user={u} isMe={u.id === me.id} />
          ))}
        </ul>
      ) : null}
      <AddUserForm />
    </SettingsSection>
  );
}

function AddUserForm() {
  const { t } = useTranslation();
  const ids = useId();
  const queryClient = useQueryClient();
  const [username, setUsername] = useState("");
  const [password, setPassword] = useState("");
  const [role, setRole] = useState<Role>("operator");
  const [tooShort, setTooShort] = useState(false);
  const add = useMutation({
    mutationFn: () => api.createUser({ username: username.trim(), password, role }),
    onSuccess: (user) => {
      queryClient.setQueryData<User[]>(queryKeys.users(), (old) => [...(old ?? []).filter((u) => u.id !== user.id), user]);
      setUsername("");
      setPassword("");
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (add.isPending || username.trim() === "") return;
    const short = passwordProblem(password) !== null;
    setTooShort(short);
    if (!short) add.mutate();
  };
  return (
    <form className="user-add" onSubmit={submit} noValidate data-testid="user-add-form">
      <div className="field">
        <label htmlFor={`${ids}-name`}>{t("auth.username")}</label>
        <input id={`${ids}-name`} data-testid="user-add-username" value={username} onChange={(e) => setUsername(e.target.value)} autoComplete="off" />
      </div>
      <div className="field">
        <label htmlFor={`${ids}-password`}>{t("auth.password")}</label>
        <input
          id={`${ids}-password`}
          type="password"
          data-testid="user-add-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          autoComplete="new-password"
          aria-invalid={tooShort || undefined}
        />
      </div>
      <div className="field">
        <label htmlFor={`${ids}-role`}>{t("auth.users.role")}</label>
        <select
          id={`${ids}-role`}
          data-testid="user-add-role"
          value={role}
          onChange={(e) => setRole(e.target.value === "admin" ? "admin" : "operator")}
        >
          <option value="operator">{t("auth.roles.operator")}</option>
          <option value="admin">{t("auth.roles.admin")}</option>
        </select>
      </div>
      <button type="submit" className="button button--primary" data-testid="user-add-submit" disabled={add.isPending || username.trim() === ""}>
        {add.isPending ? t("auth.users.adding") : t("auth.users.add")}
      </button>
      {tooShort ? (
        <p className="field__error" role="alert" data-testid="user-add-error">
          {t("auth.passwordTooShort", { min: PASSWORD_MIN_LENGTH })}
        </p>
      ) : add.error ? (
        <p className="field__error" role="alert" data-testid="user-add-error">
          {t("auth.users.addFailed", { message: add.error.message })}
        </p>
      ) : null}
    </form>
  );
}

function UserRow({ user, isMe }: { user: User; isMe: boolean }) {
  const { t } = useTranslation();
  const ids = useId();
  const queryClient = useQueryClient();
  const [settingPassword, setSettingPassword] = useState(false);
  const [password, setPassword] = useState("");
  const remove = useMutation({
    mutationFn: () => api.deleteUser(user.id),
    onSuccess: () => queryClient.setQueryData<User[]>(queryKeys.users(), (old) => (old ?? []).filter((u) => u.id !== user.id)),
  });
  const setPw = useMutation({
    mutationFn: () => api.setUserPassword(user.id, password),
    onSuccess: () => {
      setPassword("");
      setSettingPassword(false);
    },
  });
  const tooShort = password.length > 0 && passwordProblem(password) !== null;
  return (
    <li className="profile" data-testid={`user-${user.username}`}>
      <div className="profile__head">
        <p className="profile__name">{user.username}</p>
        <span className="pill" data-testid={`user-role-${user.username}`}>
          {t(`auth.roles.${user.role}`)}
        </span>
        {isMe ? <span className="muted">{t("auth.users.you")}</span> : null}
        <span className="profile__actions">
          <button
            type="button"
            className="button button--ghost button--small"
            data-testid={`user-password-${user.username}`}
            aria-expanded={settingPassword}
            onClick={() => setSettingPassword((v) => !v)}
          >
            {t("auth.users.setPassword")}
          </button>
          {isMe ? null : (
            <button
              type="button"
              className="button button--ghost button--small"
              data-testid={`user-delete-${user.username}`}
              disabled={remove.isPending}
              onClick={() => remove.mutate()}
            >
              {t("auth.users.remove")}
            </button>
          )}
        </span>
      </div>
      {settingPassword ? (
        <form
          className="user-password"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            if (!tooShort && password.length > 0 && !setPw.isPending) setPw.mutate();
          }}
        >
          <label htmlFor={`${ids}-pw`} className="sr-only">
            {t("auth.users.newPassword", { user: user.username })}
          </label>
          <input
            id={`${ids}-pw`}
            type="password"
            placeholder={t("auth.users.newPassword", { user: user.username })}
            data-testid={`user-password-input-${user.username}`}
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            autoComplete="new-password"
            aria-invalid={tooShort || undefined}
          />
          <button type="submit" className="button button--primary button--small" disabled={setPw.isPending || tooShort || password.length === 0}>
            {t("auth.users.setPassword")}
          </button>
          {tooShort ? <p className="field__error">{t("auth.passwordTooShort", { min: PASSWORD_MIN_LENGTH })}</p> : null}
        </form>
      ) : null}
      {setPw.isSuccess ? (
        <p className="muted" role="status">
          {t("auth.users.passwordSet")}
        </p>
      ) : null}
      {setPw.error ? (
        <p className="field__error" role="alert">
          {t("auth.users.passwordFailed", { message: setPw.error.message })}
        </p>
      ) : null}
      {remove.error ? (
        <p className="field__error" role="alert">
          {t("auth.users.removeFailed", { message: remove.error.message })}
        </p>
      ) : null}
    </li>
  );
}
