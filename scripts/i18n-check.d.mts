/** Types for scripts/i18n-check.mjs (used by its test). */
export interface Literal {
  line: number;
  text: string;
  kind: string;
}
export function findLiterals(source: string, fileName?: string): Literal[];
export function check(roots: string[], cwd?: string): { files: number; problems: string[] };
