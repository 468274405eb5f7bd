import type { TFunction } from "i18next";
import type { Words } from "./field-errors";
import { resolveWords, type NestedWords } from "./session-words";

/** `t` for words chosen at run time (field-errors.ts, server-errors.ts, session-words.ts); every key they name is in en.ts. */
export function say(t: TFunction, words: Words): string {
  return (t as unknown as (key: string, values?: Record<string, string | number>) => string)(words.key, words.values);
}

/** `say` for words whose values are words too (session-words.ts). */
export function sayNested(t: TFunction, words: NestedWords): string {
  return resolveWords(t as unknown as (key: string, values?: Record<string, string | number>) => string, words);
}
