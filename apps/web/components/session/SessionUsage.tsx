"use client";
import type { SessionUsage as Usage } from "@kandev/protocol";
import { useTranslation } from "react-i18next";
import { contextUsed, costText, usedPercent } from "../../lib/session-usage";

/** Context used of the window ("42k / 200k") and the cost so far, as the agent last said. */
export function SessionUsage({ usage, testId = "session-usage" }: { usage: Usage; testId?: string }) {
  const { t, i18n } = useTranslation();
  const cost = costText(usage, i18n.language);
  return (
    <span className="session-usage" data-testid={testId} title={t("task.usage.hint", { percent: usedPercent(usage) })}>
      <span data-testid={`${testId}-context`}>{t("task.usage.context", { used: contextUsed(usage) })}</span>
      {cost !== null ? <span data-testid={`${testId}-cost`}>{t("task.usage.cost", { cost })}</span> : null}
    </span>
  );
}
