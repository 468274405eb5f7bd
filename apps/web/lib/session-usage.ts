import type { SessionUsage } from "@kandev/protocol";

/** A token count as people say it: 950, 42k, 1.2M (one decimal below ten, none above). */
export function compactTokens(n: number): string {
  const scaled = (value: number, unit: string) => `${value < 10 ? Math.round(value * 10) / 10 : Math.round(value)}${unit}`;
  if (n >= 1_000_000) return scaled(n / 1_000_000, "M");
  if (n >= 1_000) return scaled(n / 1_000, "k");
  return String(Math.round(n));
}

/** "42k / 200k": the context window used of its size. */
export function contextUsed(usage: SessionUsage): string {
  return `${compactTokens(usage.used)} / ${compactTokens(usage.size)}`;
}

/** The cost in the operator's language ("$0.42", "0,42 $"), or null when the agent gave none. */
export function costText(usage: SessionUsage, lang: string): string | null {
  if (usage.cost === undefined) return null;
  const { amount, currency } = usage.cost;
  try {
    return new Intl.NumberFormat(lang, { style: "currency", currency, maximumFractionDigits: amount < 1 ? 4 : 2, minimumFractionDigits: 2 }).format(
      amount,
    );
  } catch {
    // A currency code Intl does not know: the number and the code as the agent sent them.
    return `${amount.toFixed(2)} ${currency}`;
  }
}

/** Share of the context window used, 0-100, for a meter. */
export function usedPercent(usage: SessionUsage): number {
  return usage.size > 0 ? Math.min(100, Math.round((usage.used / usage.size) * 100)) : 0;
}
