"use client";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { RuntimeFlag } from "@kandev/protocol";
import { useTranslation } from "react-i18next";
import { api } from "../../lib/api";
import { queryKeys } from "../../lib/query-keys";
import { useCan } from "../auth/AuthContext";

/**
 * One flag: the value in force now and where it comes from, the stored override, and buttons that
 * store a new override. A restart-required flag changes nothing until the board restarts, and the
 * row says so after every change.
 */
export function RuntimeFlagRow({ flag }: { flag: RuntimeFlag }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const mayManage = useCan("manage_runtime_flags");
  const change = useMutation({
    mutationFn: (value: boolean | null) => api.setRuntimeFlag(flag.key, value),
    onSuccess: (updated) => {
      queryClient.setQueryData<RuntimeFlag[]>(queryKeys.runtimeFlags(), (old) => old?.map((f) => (f.key === updated.key ? updated : f)));
    },
  });
  const onOff = (v: boolean | null) => (v === null ? t("settings.flags.none") : v ? t("settings.flags.on") : t("settings.flags.off"));
  const restartNotice = change.isSuccess && change.data.restart_required;

  return (
    <li className="flag" data-testid={`flag-${flag.key}`}>
      <div className="flag__main">
        <p className="flag__key">{flag.key}</p>
        <p className="flag__meta">
          <code>{flag.env_var}</code>
          <span>
            {t("settings.flags.meta", { stability: t(`settings.flags.stability.${flag.stability}`), risk: t(`settings.flags.risk.${flag.risk}`) })}
          </span>
        </p>
        <dl className="flag__facts">
          <div>
            <dt>{t("settings.flags.value")}</dt>
            <dd data-testid={`flag-value-${flag.key}`} className={flag.value ? "flag__on" : "flag__off"}>
              {onOff(flag.value)}
            </dd>
          </div>
          <div>
            <dt>{t("settings.flags.source")}</dt>
            <dd data-testid={`flag-source-${flag.key}`} data-source={flag.source}>
              {t(`settings.flags.sources.${flag.source}`, { envVar: flag.env_var })}
            </dd>
          </div>
          <div>
            <dt>{t("settings.flags.override")}</dt>
            <dd data-testid={`flag-override-${flag.key}`}>{onOff(flag.override)}</dd>
          </div>
        </dl>
      </div>
      {flag.mutable && mayManage ? (
        <fieldset className="flag__actions" aria-label={flag.key}>
          <button
            type="button"
            className="button button--ghost"
            aria-pressed={flag.override === true}
            disabled={change.isPending}
            onClick={() => change.mutate(true)}
            data-testid={`flag-on-${flag.key}`}
          >
            {t("settings.flags.setOn")}
          </button>
          <button
            type="button"
            className="button button--ghost"
            aria-pressed={flag.override === false}
            disabled={change.isPending}
            onClick={() => change.mutate(false)}
            data-testid={`flag-off-${flag.key}`}
          >
            {t("settings.flags.setOff")}
          </button>
          <button
            type="button"
            className="button button--ghost"
            disabled={change.isPending || flag.override === null}
            onClick={() => change.mutate(null)}
            data-testid={`flag-clear-${flag.key}`}
          >
            {t("settings.flags.clear")}
          </button>
        </fieldset>
      ) : flag.mutable ? (
        <p className="muted" data-testid={`flag-admin-only-${flag.key}`}>
          {t("auth.adminOnly")}
        </p>
      ) : (
        <p className="muted">{t("settings.flags.immutable")}</p>
      )}
      {flag.source === "env" ? <p className="flag__note">{t("settings.flags.envWins", { envVar: flag.env_var })}</p> : null}
      {restartNotice ? (
        <p className="flag__restart" role="status" data-testid={`flag-restart-${flag.key}`}>
          {t("settings.flags.restartRequired")}
        </p>
      ) : null}
      {change.isError ? (
        <p className="field__error" role="alert">
          {t("settings.flags.failed", { message: change.error.message })}
        </p>
      ) : null}
    </li>
  );
}
