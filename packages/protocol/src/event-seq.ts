/**
 * agentctl numbers its agent-stream events: each `notification` frame carries `id: "e-<n>"`, n
 * counting from 1 per agentctl process. On a new connection agentctl replays the events it sent
 * in the last moments on the previous one (a frame written to a socket whose peer had already
 * gone is lost without an error), so a client sees some events twice and must drop every event
 * whose number is not above the highest it has handled. A gap in the numbers means events were
 * dropped (agentctl's buffer overflowed while nobody was connected).
 */
export const EVENT_ID_PREFIX = "e-";

/** The id of event number `seq`. */
export function eventId(seq: number): string {
  return `${EVENT_ID_PREFIX}${seq}`;
}

/** The number of an event id, or null when the id is absent or not an event id. */
export function eventSeq(id: string | undefined): number | null {
  if (id === undefined || !id.startsWith(EVENT_ID_PREFIX)) return null;
  const n = Number(id.slice(EVENT_ID_PREFIX.length));
  return Number.isSafeInteger(n) && n > 0 ? n : null;
}
