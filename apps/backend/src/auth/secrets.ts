// Random credentials and their stored form: only a SHA-256 of a session id or API token is kept,
// so a copy of the database opens nothing. (A hash, not a KDF: these are 256 random bits, not
// something a person chose, so there is nothing to guess.)
import { createHash, randomBytes } from "node:crypto";

/** Prefix of API tokens, so a leaked one is recognisable (and redacted by name patterns). */
export const TOKEN_PREFIX = "kdv_";

export function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/** A new session id for the `kandev_session` cookie. */
export function newSessionSecret(): string {
  return randomBytes(32).toString("base64url");
}

/** A new API token: `kdv_` + 256 random bits. */
export function newApiToken(): string {
  return `${TOKEN_PREFIX}${randomBytes(32).toString("base64url")}`;
}
