import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { FeaturesSchema, RuntimeFlagSchema } from "@kandev/protocol";
import { FLAG_KEYS, FLAG_REGISTRY, PROFILE_DEFAULTS, PROFILES } from "./registry.js";
import { resolveFlags, toFeatures, toRuntimeFlag } from "./resolve.js";

const KEY = "features.acpElicitation";

describe("flag resolution: env > override > profile", () => {
  test("profile default when nothing else is set (false in every profile)", () => {
    for (const p of PROFILES) assert.deepEqual(resolveFlags(p, {}, {})[KEY], { value: false, source: "profile" });
  });
  test("an override beats the profile", () => {
    assert.deepEqual(resolveFlags("prod", {}, { [KEY]: true })[KEY], { value: true, source: "override" });
  });
  test("env beats the override, in both directions", () => {
    assert.deepEqual(resolveFlags("prod", { [KEY]: false }, { [KEY]: true })[KEY], { value: false, source: "env" });
    assert.deepEqual(resolveFlags("prod", { [KEY]: true }, { [KEY]: false })[KEY], { value: true, source: "env" });
  });
  test("features carry the resolved values", () => {
    assert.deepEqual(toFeatures(resolveFlags("dev", {}, { [KEY]: true })), { acpElicitation: true });
    assert.deepEqual(toFeatures(resolveFlags("dev", {}, {})), { acpElicitation: false });
  });
  test("the public view passes RuntimeFlagSchema and reports the override separately from the value", () => {
    const flag = toRuntimeFlag(KEY, { value: false, source: "profile" }, true);
    RuntimeFlagSchema.parse(flag);
    assert.equal(flag.value, false);
    assert.equal(flag.override, true);
    assert.equal(flag.restart_required, true);
    assert.equal(toRuntimeFlag(KEY, { value: false, source: "profile" }, undefined).override, null);
  });
});

describe("flag registry completeness", () => {
  test("registry features and the Features schema name the same keys, one flag each", () => {
    const features = FLAG_KEYS.map((k) => FLAG_REGISTRY[k].feature).sort();
    assert.deepEqual(features, Object.keys(FeaturesSchema.shape).sort());
    assert.equal(new Set(features).size, features.length);
  });
  test("every profile gives every flag a default, and nothing else", () => {
    for (const p of PROFILES) assert.deepEqual(Object.keys(PROFILE_DEFAULTS[p]).sort(), [...FLAG_KEYS].sort());
  });
  test("env var names are unique and KANDEV_-prefixed", () => {
    const vars = FLAG_KEYS.map((k) => FLAG_REGISTRY[k].envVar);
    assert.equal(new Set(vars).size, vars.length);
    for (const v of vars) assert.match(v, /^KANDEV_[A-Z0-9_]+$/);
  });
  test("features.acpElicitation is declared as the spec says", () => {
    assert.deepEqual(
      { ...FLAG_REGISTRY[KEY] },
      {
        envVar: "KANDEV_FEATURES_ACP_ELICITATION",
        kind: "feature",
        stability: "experimental",
        risk: "medium",
        restartRequired: true,
        mutable: true,
        feature: "acpElicitation",
      },
    );
  });
});
