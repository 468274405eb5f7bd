import { applyAppended, type Message, type MessageAppended } from "@kandev/protocol";
import type { Page, Pages } from "./paged-list";

// Streamed text arrives as deltas (`session.message.appended`, docs/API.md). These are the pure
// rules for laying them on the cached transcript; applyAppended (protocol) decides whether one fits.

/**
 * The transcript pages with `append` laid on its message, the same pages when they already hold the
 * text, or null when the delta does not fit (the message is not loaded, or a delta was missed): the
 * caller refetches the session's messages. Only the message's page and the message itself are new
 * objects, so nothing else in the transcript re-renders.
 */
export function appendToPages(data: Pages<Message>, append: MessageAppended): Pages<Message> | null {
  for (let p = 0; p < data.pages.length; p++) {
    const page = data.pages[p] as Page<Message>;
    const i = page.items.findIndex((m) => m.id === append.message_id);
    if (i === -1) continue;
    const message = page.items[i] as Message;
    const content = applyAppended(message.content, append.offset, append.text);
    if (content === null) return null;
    if (content === message.content) return data;
    const items = page.items.slice();
    items[i] = { ...message, content };
    const pages = data.pages.slice();
    pages[p] = { ...page, items };
    return { ...data, pages };
  }
  return null;
}

/**
 * A freshly fetched page with the deltas that arrived while it was fetched (LiveLedger), in order.
 * The page may have read the text before or after each delta was made: applyAppended keeps what it
 * holds and adds only what is new. A delta that does not fit is left out; the next one that does
 * not fit the cache asks for a refetch.
 */
export function pageWithAppends(page: Page<Message>, appends: readonly MessageAppended[]): Page<Message> {
  let items = page.items;
  for (const append of appends) {
    const i = items.findIndex((m) => m.id === append.message_id);
    if (i === -1) continue;
    const message = items[i] as Message;
    const content = applyAppended(message.content, append.offset, append.text);
    if (content === null || content === message.content) continue;
    if (items === page.items) items = items.slice();
    items[i] = { ...message, content };
  }
  return items === page.items ? page : { ...page, items };
}
