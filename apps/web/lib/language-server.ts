import { cookies, headers } from "next/headers";
import { LANGUAGE_COOKIE, LANGUAGE_HEADER, resolveLanguage, type Language } from "./language";

/** The language of the current request (Server Components only). */
export async function requestLanguage(): Promise<Language> {
  const [h, c] = await Promise.all([headers(), cookies()]);
  return resolveLanguage({
    query: h.get(LANGUAGE_HEADER),
    cookie: c.get(LANGUAGE_COOKIE)?.value,
    acceptLanguage: h.get("accept-language"),
  });
}
