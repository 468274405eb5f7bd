"use client";
import { useId, useState, type FormEvent } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { ApiToken, CreatedToken, Me } from "@kandev/protocol";
import { useTranslation } from "react-i18next";
import { api } from "../../lib/api";
import { queryKeys } from "../../lib/query-keys";
import { SettingsSection } from "./SettingsSection";

/** Settings -> API tokens: create one (its secret shown once, with Copy), list and revoke. */
export function ApiTokensSection({ me }: { me: Me }) {
  const { t, i18n } = useTranslation();
  const ids = useId();
  const queryClient = useQueryClient();
  const tokens = useQuery({ queryKey: queryKeys.tokens(), queryFn: ({ signal }) => api.listTokens(signal) });
  const [name, setName] = useState("");
  const [fresh, setFresh] = useState<CreatedToken | null>(null);
  const [copied, setCopied] = useState(false);
  const create = useMutation({
    mutationFn: () => api.createToken(name.trim()),
    onSuccess: (created) => {
      setFresh(created);
      setCopied(false);
      setName("");
      const listed: ApiToken = { id: created.id, name: created.name, created_at: created.created_at, last_used_at: null, username: me.username };
      queryClient.setQueryData<ApiToken[]>(queryKeys.tokens(), (old) => [...(old ?? []).filter((x) => x.id !== created.id), listed]);
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (name.trim() !== "" && !create.isPending) create.mutate();
  };
  const date = (iso: string) => new Date(iso).toLocaleString(i18n.language);
  return (
    <SettingsSection id="tokens" title={t("auth.tokens.heading")} description={t("auth.tokens.description")}>
      {tokens.isError ? (
        <p className="banner banner--error" role="alert">
          {t("settings.loadFailed", { message: tokens.error.message })}
        </p>
      ) : null}
      {tokens.data && tokens.data.length === 0 ? <p className="muted">{t("auth.tokens.empty")}</p> : null}
      {tokens.data && tokens.data.length > 0 ? (
        <ul className="settings-list">
          {tokens.data.map((tok) => (
            <TokenRow key={tok.id} token={tok} showOwner={tok.username !== undefined && tok.username !== me.username} date={date} />
          ))}
        </ul>
      ) : null}
      {fresh ? (
        <div className="banner token-once" role="status" data-testid="token-created">
          <p>{t("auth.tokens.shownOnce")}</p>
          <code data-testid="token-value">{fresh.token}</code>
          <button
            type="button"
            className="button button--ghost button--small"
            data-testid="token-copy"
            onClick={() => {
              void navigator.clipboard?.writeText(fresh.token).then(() => setCopied(true));
            }}
          >
            {copied ? t("auth.tokens.copied") : t("auth.tokens.copy")}
          </button>
          <button type="button" className="button button--ghost button--small" onClick={() => setFresh(null)}>
            {t("common.dismiss")}
          </button>
        </div>
      ) : null}
      <form className="repo-add" onSubmit={submit} noValidate>
        <div className="field">
          <label htmlFor={`${ids}-name`}>{t("auth.tokens.name")}</label>
          <input id={`${ids}-name`} data-testid="token-name" value={name} onChange={(e) => setName(e.target.value)} autoComplete="off" />
        </div>
        <button type="submit" className="button button--primary" data-testid="token-create" disabled={create.isPending || name.trim() === ""}>
          {create.isPending ? t("auth.tokens.creating") : t("auth.tokens.create")}
        </button>
        {create.error ? (
          <p className="field__error" role="alert">
            {t("auth.tokens.createFailed", { message: create.error.message })}
          </p>
        ) : null}
      </form>
    </SettingsSection>
  );
}

function TokenRow({ token, showOwner, date }: { token: ApiToken; showOwner: boolean; date: (iso: string) => string }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const revoke = useMutation({
    mutationFn: () => api.revokeToken(token.id),
    onSuccess: () => queryClient.setQueryData<ApiToken[]>(queryKeys.tokens(), (old) => (old ?? []).filter((x) => x.id !== token.id)),
  });
  return (
    <li className="profile" data-testid={`token-${token.name}`}>
      <div className="profile__head">
        <p className="profile__name">{token.name}</p>
        {showOwner && token.username ? <span className="pill">{t("auth.tokens.owner", { user: token.username })}</span> : null}
        <span className="profile__actions">
          <button
            type="button"
            className="button button--ghost button--small"
            data-testid={`token-revoke-${token.name}`}
            disabled={revoke.isPending}
            onClick={() => revoke.mutate()}
          >
            {t("auth.tokens.revoke")}
          </button>
        </span>
      </div>
      <p className="muted">
        {t("auth.tokens.created", { date: date(token.created_at) })} ·{" "}
        {token.last_used_at ? t("auth.tokens.lastUsed", { date: date(token.last_used_at) }) : t("auth.tokens.neverUsed")}
      </p>
      {revoke.error ? (
        <p className="field__error" role="alert">
          {t("auth.tokens.revokeFailed", { message: revoke.error.message })}
        </p>
      ) : null}
    </li>
  );
}
