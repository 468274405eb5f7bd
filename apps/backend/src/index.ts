/** @kandev/backend: the board's HTTP + WebSocket server, usable in-process (tests) or via main.ts. */
export { startServer, MOCK_PROFILE_ID } from "./server.js";
export type { ServerOptions, RunningServer } from "./server.js";
export { loadEnv, parseDurationMs } from "./env.js";
export type { BackendEnv } from "./env.js";
export { FLAG_REGISTRY, FLAG_KEYS, PROFILE_DEFAULTS, PROFILES } from "./flags/registry.js";
export type { FlagKey, Profile, FlagDefinition } from "./flags/registry.js";
