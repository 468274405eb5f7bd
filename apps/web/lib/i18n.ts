"use client";
import i18next, { type i18n } from "i18next";
import { initReactI18next } from "react-i18next";
import type { Language } from "./language";
import { RESOURCES } from "./locales";

/**
 * Creates the browser's i18next instance. Resources are inline and `initAsync: false`, so the very
 * first render (server-side render of client components included) already has its copy; the
 * language comes from the server so both renders agree and hydration never mismatches.
 */
export function createI18n(lang: Language): i18n {
  const instance = i18next.createInstance();
  void instance.use(initReactI18next).init({
    lng: lang,
    fallbackLng: "en",
    resources: RESOURCES,
    initAsync: false,
    // React already escapes text; escaping twice would show entities to the operator.
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  return instance;
}
