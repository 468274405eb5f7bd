"use client";
import { useId } from "react";
import { useRouter } from "next/navigation";
import { useTranslation } from "react-i18next";
import { LANGUAGE_COOKIE, SUPPORTED_LANGUAGES, isLanguage } from "../lib/language";

const ONE_YEAR_S = 365 * 24 * 60 * 60;

/**
 * Picks the UI language. The choice is remembered in a cookie the server reads, so the next server
 * render (requested at once) agrees with what the browser shows.
 */
export function LanguageSwitcher() {
  const { t, i18n } = useTranslation();
  const router = useRouter();
  const id = useId();
  return (
    <div className="lang-switch">
      <label htmlFor={id} className="sr-only">
        {t("language.label")}
      </label>
      <select
        id={id}
        className="lang-switch__select"
        value={i18n.language}
        data-testid="language-switcher"
        onChange={(e) => {
          const lang = e.target.value;
          if (!isLanguage(lang)) return;
          // biome-ignore lint/suspicious/noDocumentCookie: the server renders the chosen language from this cookie; the Cookie Store API is not in every browser the board supports.
          document.cookie = `${LANGUAGE_COOKIE}=${lang}; path=/; max-age=${ONE_YEAR_S}; samesite=lax`;
          document.documentElement.lang = lang;
          void i18n.changeLanguage(lang);
          router.refresh();
        }}
      >
        {SUPPORTED_LANGUAGES.map((lang) => (
          <option key={lang} value={lang}>
            {t(`language.${lang}`)}
          </option>
        ))}
      </select>
    </div>
  );
}
