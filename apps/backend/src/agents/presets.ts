// The catalog of well-known ACP agents a user may have installed, as ready-made agent profiles.
// Pure: availability comes from an injected resolver, so nothing here touches the disk or spawns.
import path from "node:path";
import type { AgentPreset } from "@kandev/protocol";
import type { Resolution } from "./executable.js";

/** The Claude ACP bridge: its npm package and the executable it installs. */
export const CLAUDE_BRIDGE_PACKAGE = "@agentclientprotocol/claude-agent-acp";
export const CLAUDE_BRIDGE_BIN = "claude-agent-acp";

/** One way to run an agent; `command[0]` is what must resolve for the preset to be available. */
interface Candidate {
  command: string[];
}

interface PresetDefinition {
  id: string;
  name: string;
  description: string;
  /** Sent to agentctl as `agent_id` (the capabilities `_meta` variant). */
  agentId: string;
  envHints: string[];
  installHint: string;
  /** Executable names (basename of command[0]) that identify this agent in any profile. */
  bins: string[];
  /** Ways to run it, best first. The first that resolves is the preset's command. */
  candidates(ctx: PresetContext): Candidate[];
}

export interface PresetContext {
  /** Folders whose `node_modules/.bin` may hold a local install (a configured folder, then the board's cwd). */
  searchDirs: string[];
  /** Resolves an executable like spawn() will (see executable.ts). */
  resolve: (file: string) => Resolution;
}

const CLAUDE_INSTALL = `npm install -g ${CLAUDE_BRIDGE_PACKAGE} (or npm install ${CLAUDE_BRIDGE_PACKAGE} in the board's folder)`;
const CLAUDE_ENV = ["ANTHROPIC_API_KEY"];

const DEFINITIONS: readonly PresetDefinition[] = [
  {
    id: "claude-acp-local",
    name: "Claude (installed bridge)",
    description:
      "Claude Code through the ACP bridge installed on this machine: node_modules/.bin/claude-agent-acp in the board's folder, or claude-agent-acp on PATH.",
    agentId: "claude-acp",
    envHints: CLAUDE_ENV,
    installHint: CLAUDE_INSTALL,
    bins: [CLAUDE_BRIDGE_BIN],
    candidates: (ctx) => [
      ...ctx.searchDirs.map((dir) => ({ command: [path.join(dir, "node_modules", ".bin", CLAUDE_BRIDGE_BIN)] })),
      { command: [CLAUDE_BRIDGE_BIN] },
    ],
  },
  {
    id: "claude-acp-npx",
    name: "Claude (bridge via npx)",
    description:
      "Claude Code through the latest ACP bridge, fetched by npx on each start (needs network access the first time; the first start can take a minute).",
    agentId: "claude-acp",
    envHints: CLAUDE_ENV,
    installHint: "Install Node.js with npm, which provides npx",
    bins: [CLAUDE_BRIDGE_BIN],
    candidates: () => [{ command: ["npx", "-y", `${CLAUDE_BRIDGE_PACKAGE}@latest`] }],
  },
  {
    id: "gemini",
    name: "Gemini CLI",
    description: "Google's Gemini CLI in ACP mode.",
    agentId: "gemini",
    envHints: ["GEMINI_API_KEY"],
    installHint: "npm install -g @google/gemini-cli",
    bins: ["gemini"],
    candidates: () => [{ command: ["gemini", "--experimental-acp"] }],
  },
  {
    id: "codex-acp",
    name: "Codex (ACP adapter)",
    description: "OpenAI Codex through its ACP adapter, codex-acp.",
    agentId: "codex-acp",
    envHints: ["OPENAI_API_KEY"],
    installHint: "npm install -g @zed-industries/codex-acp",
    bins: ["codex-acp"],
    candidates: () => [{ command: ["codex-acp"] }],
  },
  {
    id: "goose",
    name: "goose",
    description: "Block's goose agent in ACP mode.",
    agentId: "goose",
    envHints: [],
    installHint: "Install goose (see https://block.github.io/goose/docs/getting-started/installation)",
    bins: ["goose"],
    candidates: () => [{ command: ["goose", "acp"] }],
  },
];

/** Every preset id, in catalog order. */
export const PRESET_IDS: readonly string[] = DEFINITIONS.map((d) => d.id);

/** The catalog with availability resolved now. */
export function buildPresets(ctx: PresetContext): AgentPreset[] {
  return DEFINITIONS.map((def) => presetOf(def, ctx));
}

/** One preset by id, or undefined. */
export function findPreset(id: string, ctx: PresetContext): AgentPreset | undefined {
  const def = DEFINITIONS.find((d) => d.id === id);
  return def === undefined ? undefined : presetOf(def, ctx);
}

function presetOf(def: PresetDefinition, ctx: PresetContext): AgentPreset {
  const candidates = def.candidates(ctx);
  const base = {
    id: def.id,
    name: def.name,
    description: def.description,
    env_hints: [...def.envHints],
    agent_id: def.agentId,
    install_hint: def.installHint,
  };
  for (const c of candidates) {
    const r = ctx.resolve(c.command[0]!);
    if (r.ok) return { ...base, command: [...c.command], available: true };
  }
  // Nothing resolves: offer the last (most portable) candidate, which names the bare executable.
  const fallback = candidates[candidates.length - 1]!;
  const exe = fallback.command[0]!;
  const where =
    candidates.length > 1
      ? `${candidates
          .slice(0, -1)
          .map((c) => c.command[0])
          .join(", ")} or on PATH`
      : "on PATH";
  return {
    ...base,
    command: [...fallback.command],
    available: false,
    unavailable_reason: `${path.basename(exe)} was not found (${where}). Install: ${def.installHint}`,
  };
}

/**
 * The install hint for a profile's command when its executable names a known agent
 * (`claude-agent-acp`, `/x/node_modules/.bin/claude-agent-acp`), or npx/npm itself.
 */
export function installHintFor(command: readonly string[]): string | undefined {
  const exe = command[0];
  if (exe === undefined) return undefined;
  const bin = path.basename(exe);
  if (bin === "npx" || bin === "npm") {
    // npm itself is what is missing; the package comes with it once npm is there.
    return "Install Node.js with npm, which provides npx";
  }
  const byBin = DEFINITIONS.find((d) => d.bins.includes(bin));
  return byBin?.installHint;
}
