/** Languages the web app ships copy for; the server picks one and passes it down. */
export const SUPPORTED_LANGUAGES = ["en", "de"] as const;
export type Language = (typeof SUPPORTED_LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = "en";

/** The cookie that remembers the operator's choice, and the header the proxy passes `?lang=` in. */
export const LANGUAGE_COOKIE = "kandev-lang";
export const LANGUAGE_HEADER = "x-kandev-lang";

export function isLanguage(value: unknown): value is Language {
  return typeof value === "string" && (SUPPORTED_LANGUAGES as readonly string[]).includes(value);
}

/** The first supported language in an Accept-Language header, by the header's own weights. */
export function fromAcceptLanguage(header: string | null | undefined): Language | null {
  if (!header) return null;
  const ranked = header
    .split(",")
    .map((part, i) => {
      const [tag = "", ...params] = part.trim().split(";");
      const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
      const weight = q ? Number(q.slice(2)) : 1;
      return { base: tag.trim().toLowerCase().split("-")[0] ?? "", weight: Number.isFinite(weight) ? weight : 0, i };
    })
    .filter((x) => x.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.i - b.i);
  return ranked.map((x) => x.base).find(isLanguage) ?? null;
}

/**
 * The language of one request: `?lang=` (passed on by the proxy) beats the remembered cookie,
 * which beats the browser's Accept-Language; anything unsupported is ignored.
 */
export function resolveLanguage(input: { query?: string | null; cookie?: string | null; acceptLanguage?: string | null }): Language {
  if (isLanguage(input.query)) return input.query;
  if (isLanguage(input.cookie)) return input.cookie;
  return fromAcceptLanguage(input.acceptLanguage) ?? DEFAULT_LANGUAGE;
}
