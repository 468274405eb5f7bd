import type { Language } from "../language";
import { de } from "./de";
import { en } from "./en";

/** Every shipped locale, as i18next resources. */
export const RESOURCES = {
  en: { translation: en },
  de: { translation: de },
} as const satisfies Record<Language, { translation: unknown }>;
