/**
 * D1: the order in which an elicitation's questions are presented.
 *
 * Declaration order is not trusted (the spec's Go binding lost it, and JavaScript itself moves
 * integer-like keys to the front, A5), so questions are sorted by a total order over the property
 * key: split at the maximal trailing run of ASCII digits, compare prefixes bytewise, a numbered key
 * before an unnumbered one, numbers numerically, and finally the whole key bytewise.
 */

/** A property key split at its maximal trailing run of ASCII digits. */
export interface SplitKey {
  /** Everything before the trailing digits (the whole key when it ends in no digit). */
  prefix: string;
  /** The trailing digits verbatim, or null when the key does not end in a digit. */
  digits: string | null;
}

function isAsciiDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

/** `question_10` -> {prefix: "question_", digits: "10"}; `apiKey` -> {prefix: "apiKey", digits: null}. */
export function splitKey(key: string): SplitKey {
  let i = key.length;
  while (i > 0 && isAsciiDigit(key.charCodeAt(i - 1))) i -= 1;
  return i === key.length ? { prefix: key, digits: null } : { prefix: key.slice(0, i), digits: key.slice(i) };
}

/**
 * Compares two strings in UTF-8 byte order, which equals Unicode code point order. Plain `<` on
 * JavaScript strings compares UTF-16 code units and disagrees with bytes for astral characters.
 * Lone surrogates are compared by their code unit value, which keeps the order total.
 */
export function compareBytewise(a: string, b: string): number {
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const ca = a.codePointAt(i) as number;
    const cb = b.codePointAt(j) as number;
    if (ca !== cb) return ca < cb ? -1 : 1;
    i += ca > 0xffff ? 2 : 1;
    j += cb > 0xffff ? 2 : 1;
  }
  const restA = a.length - i;
  const restB = b.length - j;
  return restA === restB ? 0 : restA < restB ? -1 : 1;
}

/** Compares two runs of ASCII digits as non-negative integers of any length. */
export function compareDigitRuns(a: string, b: string): number {
  const na = a.replace(/^0+/, "");
  const nb = b.replace(/^0+/, "");
  if (na.length !== nb.length) return na.length < nb.length ? -1 : 1;
  return na === nb ? 0 : na < nb ? -1 : 1;
}

/** The D1 comparator: total, so sorting by it is deterministic whatever order keys arrive in. */
export function compareKeys(a: string, b: string): number {
  const sa = splitKey(a);
  const sb = splitKey(b);
  const byPrefix = compareBytewise(sa.prefix, sb.prefix);
  if (byPrefix !== 0) return byPrefix;
  if (sa.digits !== null && sb.digits === null) return -1;
  if (sa.digits === null && sb.digits !== null) return 1;
  if (sa.digits !== null && sb.digits !== null) {
    const byNumber = compareDigitRuns(sa.digits, sb.digits);
    if (byNumber !== 0) return byNumber;
  }
  // Reachable despite the spec's note: `q01` and `q1` share prefix and number.
  return compareBytewise(a, b);
}

/** Returns a new array of the keys in D1 order. */
export function sortKeys(keys: readonly string[]): string[] {
  return [...keys].sort(compareKeys);
}
