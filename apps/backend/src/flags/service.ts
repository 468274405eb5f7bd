import { ProtocolError, type Features, type RuntimeFlag } from "@kandev/protocol";
import type { Db } from "../db/client.js";
import * as overridesRepo from "../repos/flag-overrides.js";
import { FLAG_KEYS, FLAG_REGISTRY, isFlagKey, type FlagKey, type Profile } from "./registry.js";
import { resolveFlags, toFeatures, toRuntimeFlag, type ResolvedFlags } from "./resolve.js";

/**
 * The runtime flags of this process: resolved once at construction (startup) and frozen; PATCH
 * only stores an override for the next start (every flag is restart_required).
 */
export class FlagService {
  readonly resolved: ResolvedFlags;

  constructor(
    private readonly db: Db,
    profile: Profile,
    envValues: Partial<Record<FlagKey, boolean>>,
  ) {
    this.resolved = resolveFlags(profile, envValues, this.knownOverrides());
  }

  /** What every agentctl receives in `agent.configure`. */
  features(): Features {
    return toFeatures(this.resolved);
  }

  list(): RuntimeFlag[] {
    const overrides = this.knownOverrides();
    return FLAG_KEYS.map((key) => toRuntimeFlag(key, this.resolved[key], overrides[key]));
  }

  /** Stores (or with null clears) an override. Unknown key -> NOT_FOUND, immutable flag -> CONFLICT. */
  setOverride(key: string, value: boolean | null): RuntimeFlag {
    if (!isFlagKey(key)) throw new ProtocolError("NOT_FOUND", `unknown runtime flag ${key}`);
    if (!FLAG_REGISTRY[key].mutable) throw new ProtocolError("CONFLICT", `runtime flag ${key} cannot be changed at run time`);
    overridesRepo.setOverride(this.db, key, value);
    return toRuntimeFlag(key, this.resolved[key], this.knownOverrides()[key]);
  }

  private knownOverrides(): Partial<Record<FlagKey, boolean>> {
    const out: Partial<Record<FlagKey, boolean>> = {};
    for (const [key, value] of Object.entries(overridesRepo.listOverrides(this.db))) if (isFlagKey(key)) out[key] = value;
    return out;
  }
}
