"use client";
import { useEffect, useId, useState } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { NotificationSettings } from "@kandev/protocol";
import { useTranslation } from "react-i18next";
import { api } from "../../lib/api";
import { beep } from "../../lib/notifications/beep";
import { desktopPermission, requestDesktopPermission } from "../../lib/notifications/desktop";
import type { DesktopPermission } from "../../lib/notifications/plan";
import { setLocalPrefs, useLocalPrefs } from "../../lib/notifications/prefs-store";
import { useNotificationSettings } from "../../lib/queries";
import { queryKeys } from "../../lib/query-keys";
import { SettingsSection } from "./SettingsSection";
import { ToggleRow } from "./ToggleRow";

/**
 * Which notifications the board sends (stored on the board, for every browser) and how this
 * browser shows them: a desktop notification, once allowed, and a sound.
 */
export function NotificationSettingsSection() {
  const { t } = useTranslation();
  const ids = useId();
  const queryClient = useQueryClient();
  const settings = useNotificationSettings();
  const prefs = useLocalPrefs();
  // The permission is read after mount: the server cannot know it, and both renders must agree.
  const [permission, setPermission] = useState<DesktopPermission>("default");
  useEffect(() => setPermission(desktopPermission()), []);

  // What the operator just chose, shown from the click on: a controlled checkbox springs back to
  // its prop within the click, and the mutation's own state reaches React only a task later (the
  // switch flickered off, and a quick second click read the old value). Cleared once the save
  // settles: then the board's answer, or on failure the old value and the error, show.
  const [chosen, setChosen] = useState<Partial<NotificationSettings>>({});
  const save = useMutation({
    mutationFn: api.updateNotificationSettings,
    onSuccess: (next) => queryClient.setQueryData<NotificationSettings>(queryKeys.notificationSettings(), next),
    onSettled: () => setChosen({}),
  });
  const server = settings.data ? { ...settings.data, ...chosen } : undefined;
  const choose = (patch: Partial<NotificationSettings>) => {
    setChosen(patch);
    save.mutate(patch);
  };

  return (
    <SettingsSection id="notifications" title={t("settings.notifications.heading")} description={t("settings.notifications.description")}>
      {settings.isError ? (
        <p className="banner banner--error" role="alert">
          {t("settings.loadFailed", { message: settings.error.message })}
        </p>
      ) : null}
      <div className="toggles">
        <ToggleRow
          id={`${ids}-clarification`}
          testId="notify-clarification"
          label={t("settings.notifications.clarification")}
          checked={server?.clarification_requested ?? true}
          disabled={!server || save.isPending}
          onChange={(v) => choose({ clarification_requested: v })}
        />
        <ToggleRow
          id={`${ids}-turn`}
          testId="notify-turn-finished"
          label={t("settings.notifications.turnFinished")}
          checked={server?.turn_finished ?? false}
          disabled={!server || save.isPending}
          onChange={(v) => choose({ turn_finished: v })}
        />
        {save.isError ? (
          <p className="field__error" role="alert">
            {t("settings.notifications.failed", { message: save.error.message })}
          </p>
        ) : null}
        <p className="muted toggles__note">{t("settings.notifications.browserOnly")}</p>
        <ToggleRow
          id={`${ids}-desktop`}
          testId="notify-desktop"
          label={t("settings.notifications.desktop")}
          help={`${t("settings.notifications.desktopHelp")} ${t(`settings.notifications.permission.${permission}`)}`}
          checked={prefs.desktop}
          onChange={(v) => setLocalPrefs({ ...prefs, desktop: v })}
        >
          {permission === "default" ? (
            <button
              type="button"
              className="button button--ghost"
              data-testid="notify-allow"
              onClick={() => void requestDesktopPermission().then(setPermission)}
            >
              {t("settings.notifications.allow")}
            </button>
          ) : null}
        </ToggleRow>
        <ToggleRow
          id={`${ids}-sound`}
          testId="notify-sound"
          label={t("settings.notifications.sound")}
          checked={prefs.sound}
          onChange={(v) => setLocalPrefs({ ...prefs, sound: v })}
        >
          <button type="button" className="button button--ghost" onClick={beep} data-testid="notify-test-sound">
            {t("settings.notifications.test")}
          </button>
        </ToggleRow>
      </div>
    </SettingsSection>
  );
}
