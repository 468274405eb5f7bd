import type { TFunction } from "i18next";
import type { Words } from "./field-errors";

/** `t` for words chosen at run time (field-errors.ts, server-errors.ts); every key they name is in en.ts. */
export function say(t: TFunction, words: Words): string {
  return (t as unknown as (key: string, values?: Record<string, string | number>) => string)(words.key, words.values);
}
