import type { Features } from "@kandev/protocol";

/** Deployment profiles; each gives every flag a default (DECISIONS F5). */
export const PROFILES = ["prod", "dev", "e2e"] as const;
export type Profile = (typeof PROFILES)[number];

/** Static description of one runtime flag. */
export interface FlagDefinition {
  /** Environment variable that overrides everything else (read only by env.ts). */
  envVar: string;
  kind: "feature";
  stability: "experimental" | "beta" | "stable";
  risk: "low" | "medium" | "high";
  /** The value is resolved once at startup; a change takes effect at the next start. */
  restartRequired: boolean;
  /** Whether PATCH /api/v1/runtime-flags/:key may store an override. */
  mutable: boolean;
  /** The key this flag fills in the `features` sent to agentctl in `agent.configure`. */
  feature: keyof Features;
}

/** Every runtime flag the backend knows. The completeness test ties it to FeaturesSchema. */
export const FLAG_REGISTRY = {
  "features.acpElicitation": {
    envVar: "KANDEV_FEATURES_ACP_ELICITATION",
    kind: "feature",
    stability: "experimental",
    risk: "medium",
    restartRequired: true,
    mutable: true,
    feature: "acpElicitation",
  },
} as const satisfies Record<string, FlagDefinition>;

export type FlagKey = keyof typeof FLAG_REGISTRY;
export const FLAG_KEYS = Object.keys(FLAG_REGISTRY) as FlagKey[];

/** Per-profile defaults: elicitation stays off everywhere until it is switched on (spec §Runtime flag). */
export const PROFILE_DEFAULTS: Record<Profile, Record<FlagKey, boolean>> = {
  prod: { "features.acpElicitation": false },
  dev: { "features.acpElicitation": false },
  e2e: { "features.acpElicitation": false },
};

export function isFlagKey(key: string): key is FlagKey {
  return Object.hasOwn(FLAG_REGISTRY, key);
}
