import type { Features, RuntimeFlag } from "@kandev/protocol";
import { FLAG_KEYS, FLAG_REGISTRY, PROFILE_DEFAULTS, type FlagKey, type Profile } from "./registry.js";

export type FlagSource = "env" | "override" | "profile";
export interface ResolvedFlag {
  value: boolean;
  source: FlagSource;
}
export type ResolvedFlags = Record<FlagKey, ResolvedFlag>;

/**
 * Resolves every flag with the precedence env > SQLite override > profile default (DECISIONS F5).
 * Called once at startup; the result is what every agentctl receives until the next start.
 */
export function resolveFlags(
  profile: Profile,
  envValues: Partial<Record<FlagKey, boolean>>,
  overrides: Partial<Record<FlagKey, boolean>>,
): ResolvedFlags {
  const out = {} as ResolvedFlags;
  for (const key of FLAG_KEYS) {
    const fromEnv = envValues[key];
    const fromOverride = overrides[key];
    if (fromEnv !== undefined) out[key] = { value: fromEnv, source: "env" };
    else if (fromOverride !== undefined) out[key] = { value: fromOverride, source: "override" };
    else out[key] = { value: PROFILE_DEFAULTS[profile][key], source: "profile" };
  }
  return out;
}

/** The `features` object for `agent.configure`, built from the resolved flags. */
export function toFeatures(flags: ResolvedFlags): Features {
  const features = {} as Features;
  for (const key of FLAG_KEYS) features[FLAG_REGISTRY[key].feature] = flags[key].value;
  return features;
}

/** The public view of one flag: the value in force now plus the stored override, if any. */
export function toRuntimeFlag(key: FlagKey, resolved: ResolvedFlag, override: boolean | undefined): RuntimeFlag {
  const def = FLAG_REGISTRY[key];
  return {
    key,
    env_var: def.envVar,
    kind: def.kind,
    stability: def.stability,
    risk: def.risk,
    restart_required: def.restartRequired,
    mutable: def.mutable,
    value: resolved.value,
    source: resolved.source,
    override: override ?? null,
  };
}
