import type { Tiers } from "./tiers.mjs";
export declare function listTestFiles(pkgDir: string): string[];
export declare function readPackage(pkgDir: string): { name: string; tiers: Tiers };
