// Who gave an answer, as the transcript says it (issue 34, item 3). The board records the user on
// user messages (`metadata.user`), permission decisions (the permission_request's `metadata.user`),
// clarification resolutions (`resolution.user`) and merges (`merged_by`); with auth off that is
// always "local", so the components show these only on a board with sign-in.

/** The user recorded in a message's metadata, if any. */
export function metadataUser(metadata: Record<string, unknown>): string | null {
  const user = metadata.user;
  return typeof user === "string" && user.length > 0 ? user : null;
}

export type AttributionWords =
  | { key: "auth.approvedBy"; values: { user: string } }
  | { key: "auth.deniedBy"; values: { user: string } }
  | { key: "auth.answeredBy"; values: { user: string } }
  | { key: "auth.skippedBy"; values: { user: string } };

/** "approved by bob" or "denied by bob", from the kind of the option chosen (ACP: allow_* / reject_*). */
export function permissionAttribution(chosenKind: string | undefined, user: string | null): AttributionWords | null {
  if (user === null || chosenKind === undefined) return null;
  return chosenKind.startsWith("reject") ? { key: "auth.deniedBy", values: { user } } : { key: "auth.approvedBy", values: { user } };
}

/** "answered by bob" / "skipped by bob" for a clarification a person settled; nothing for any other ending. */
export function clarificationAttribution(status: string, resolution: { user?: string } | null | undefined): AttributionWords | null {
  const user = resolution?.user;
  if (typeof user !== "string" || user.length === 0) return null;
  if (status === "answered") return { key: "auth.answeredBy", values: { user } };
  if (status === "declined") return { key: "auth.skippedBy", values: { user } };
  return null;
}
