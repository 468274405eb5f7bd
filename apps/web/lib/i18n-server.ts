import i18next, { type TFunction } from "i18next";
import { RESOURCES } from "./locales";
import type { Language } from "./language";

/**
 * A per-request i18next instance for Server Components (metadata, the html shell). It never
 * touches react-i18next, whose hooks cannot run on the server.
 */
export function serverT(lang: Language): TFunction {
  const instance = i18next.createInstance();
  void instance.init({
    lng: lang,
    fallbackLng: "en",
    resources: RESOURCES,
    initAsync: false,
    interpolation: { escapeValue: false },
  });
  return instance.t;
}
