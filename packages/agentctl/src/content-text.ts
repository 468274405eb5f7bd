import type * as acp from "@agentclientprotocol/sdk";

/** Text of a content block as the operator should see it; non-text blocks are named, not dropped. */
export function contentText(block: acp.ContentBlock): string {
  switch (block.type) {
    case "text":
      return block.text;
    case "image":
      return "[image]";
    case "audio":
      return "[audio]";
    case "resource_link":
      return `[${block.name}](${block.uri})`;
    case "resource":
      return "text" in block.resource ? block.resource.text : `[resource ${block.resource.uri}]`;
    default: {
      const _exhaustive: never = block;
      return `[${(_exhaustive as { type?: string }).type ?? "content"}]`;
    }
  }
}

/** `text` cut to at most `max` UTF-16 units, never inside a surrogate pair; `cut` says whether it was. */
export function capText(text: string, max: number): { text: string; cut: boolean } {
  if (text.length <= max) return { text, cut: false };
  let end = max;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return { text: text.slice(0, end), cut: true };
}
