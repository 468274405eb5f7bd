/**
 * Whether the source of a fenced code block ends with its closing fence. While an agent streams a
 * fence, its block runs to the end of the text and grows with every delta; it is highlighted only
 * once closed, so a long open block is never re-highlighted per delta. The fence line may sit in
 * a list item or a block quote (indentation, `>`).
 */
export function isClosedFence(source: string): boolean {
  return /\n[ \t>]*(`{3,}|~{3,})[ \t]*\n?$/.test(source);
}

/** The `language-*` name remark gives a fenced block's `<code>`, or null when it has none. */
export function fenceLanguage(className: unknown): string | null {
  const names = Array.isArray(className) ? className : typeof className === "string" ? className.split(" ") : [];
  for (const name of names) {
    if (typeof name === "string" && name.startsWith("language-") && name.length > "language-".length) return name.slice("language-".length);
  }
  return null;
}
