/** Types for scripts/i18n-check.mjs (used by its test). */
export interface Literal {
  line: number;
  text: string;
  kind: string;
}
export function findLiterals(source: string, fileName?: string): Literal[];
export function check(roots: string[], cwd?: string): { files: number; problems: string[] };
export function localeEntries(source: string, fileName?: string): { entries: Map<string, string>; problems: string[] };
export function checkLocales(dir: string, cwd?: string): { locales: number; problems: string[] };
