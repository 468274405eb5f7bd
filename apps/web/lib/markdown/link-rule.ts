/**
 * Which URLs in agent Markdown may become a live link (or a link to an image). Agent text is
 * untrusted: a prompt-injected agent can write `[ok](javascript:...)`, a `data:` document, or a
 * relative path that would resolve against the board's own origin and act on it. So only an
 * absolute http, https or mailto URL is kept; anything else renders as its text alone.
 */
const LINKABLE_PROTOCOLS = new Set(["http:", "https:", "mailto:"]);

/**
 * The href to give a link written by an agent, or `null` when it must not be a link. Parsing
 * with the WHATWG URL parser (the browser's own) means tabs, newlines, leading control
 * characters and letter case cannot disguise the scheme from this check while the browser
 * would still honour it.
 */
export function linkHref(url: string): string | null {
  let parsed: URL;
  try {
    // No base: a relative or protocol-relative URL throws and is refused.
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (!LINKABLE_PROTOCOLS.has(parsed.protocol)) return null;
  return parsed.href;
}

/** What a link written by an agent opens in: a new tab that cannot reach back to the board. */
export const AGENT_LINK_TARGET = "_blank";
/** `noopener noreferrer` cut the new tab off from this page; `nofollow` vouches for nothing. */
export const AGENT_LINK_REL = "noopener noreferrer nofollow";
