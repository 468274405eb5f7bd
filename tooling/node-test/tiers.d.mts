export type Tiers = Readonly<Record<string, readonly string[]>>;
export declare const DEFAULT_TIERS: Tiers;
export declare const SKIP_DIRS: ReadonlySet<string>;
export declare function isTestFile(name: string): boolean;
export declare function classify(
  files: readonly string[],
  tiers?: Tiers,
): { byTier: Record<string, string[]>; unclaimed: string[]; conflicts: { file: string; tiers: string[] }[] };
export declare function filterByFragments(files: readonly string[], fragments: readonly string[]): string[];
export declare function addSummaryLine(totals: Record<string, number>, line: string): boolean;
export declare function formatSummary(totals: Record<string, number>, durationMs: number): string;
