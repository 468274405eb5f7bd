/**
 * A message's content after a `session.message.appended` delta (`text` at `offset`), or null when
 * the delta does not fit the copy: text is missing before `offset` (a delta was missed, or the copy
 * is older than the stream), or the copy differs where the delta overlaps it. On null a client
 * refetches the message over REST. A delta the copy already holds, wholly or in part (the copy was
 * fetched after the text was written), adds only what is new. Offsets count UTF-16 code units.
 */
export function applyAppended(content: string, offset: number, text: string): string | null {
  if (offset > content.length) return null;
  const overlap = content.length - offset;
  if (overlap === 0) return content + text;
  if (overlap >= text.length) return content.startsWith(text, offset) ? content : null;
  return text.startsWith(content.slice(offset)) ? content + text.slice(overlap) : null;
}
