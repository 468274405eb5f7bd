import type { Resources } from "./locales/en";

// Types every `t("feature.key")` call against the English resources, so a typo fails typecheck.
declare module "i18next" {
  interface CustomTypeOptions {
    defaultNS: "translation";
    resources: { translation: Resources };
  }
}
