import type * as acp from "@agentclientprotocol/sdk";

/** What a prompt asks for: a named scenario with its remaining text, or the default reply. */
export type ParsedPrompt = { scenario: string | null; rest: string; text: string };

const SCENARIO_PREFIX = /^\s*\/e2e:([A-Za-z0-9_.-]+)(?:\s+([\s\S]*))?$/;

/** Joins the text blocks of an ACP prompt; non-text blocks are ignored. */
export function promptText(blocks: readonly acp.ContentBlock[]): string {
  return blocks
    .map((b) => (b.type === "text" ? b.text : ""))
    .filter((t) => t.length > 0)
    .join("\n");
}

/** Splits `/e2e:<name> rest` into its parts; any other text selects the default reply. */
export function parsePrompt(text: string): ParsedPrompt {
  const m = SCENARIO_PREFIX.exec(text);
  if (!m) return { scenario: null, rest: text, text };
  return { scenario: m[1] ?? null, rest: (m[2] ?? "").trim(), text };
}

/** Splits text into at most `count` non-empty consecutive pieces that join back to the text. */
export function splitChunks(text: string, count: number): string[] {
  if (text.length === 0) return [];
  const n = Math.max(1, Math.min(Math.floor(count), text.length));
  const size = Math.ceil(text.length / n);
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}
