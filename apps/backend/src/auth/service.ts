// Accounts, sign-in sessions and API tokens: the rules (who may sign in, when a session ends,
// which user may go) over the tables of store.ts. The HTTP shell is http/auth-routes.ts; the
// server asks authenticate() once per request and per /ws upgrade.
import type { IncomingMessage } from "node:http";
import type { ApiToken, AuthStatus, CreatedToken, Role, User } from "@kandev/protocol";
import type { Db } from "../db/client.js";
import { HttpError, conflict, notFound } from "../http/errors.js";
import { SESSION_TTL_MS, bearerToken, isLoopbackAddress, sessionFromCookieHeader } from "./cookie.js";
import { burnPasswordCheck, hashPassword, verifyPassword } from "./password.js";
import { FailureLimiter } from "./rate-limit.js";
import { LOCAL_USER, type RequestUser } from "./request-user.js";
import { newApiToken, newSessionSecret, sha256 } from "./secrets.js";
import * as store from "./store.js";

export interface AuthServiceOptions {
  db: Db;
  /** KANDEV_AUTH resolved (env.ts resolveAuth). Off: every request is the `local` admin. */
  enabled: boolean;
  /** The clock (tests move it to expire sessions and rate-limit windows). */
  now?: () => number;
  /** Called after sessions or tokens ended (logout, password change, user or token deleted): the /ws hub closes their sockets. */
  onCredentialsEnded?: () => void;
}

/** How a request proved who it is: the session's hash (a cookie) or a token. */
export type Credential = { kind: "session"; idHash: string } | { kind: "token" } | { kind: "none" };

export const unauthorized = (message = "sign in first: send the kandev_session cookie or Authorization: Bearer <token>"): HttpError =>
  new HttpError(401, "UNAUTHORIZED", message);
export const forbidden = (message: string): HttpError => new HttpError(403, "FORBIDDEN", message);
const WRONG_CREDENTIALS = "wrong username or password";

export function toUser(row: store.UserRow): User {
  return { id: row.id, username: row.username, role: row.role as Role, created_at: row.createdAt };
}
const toRequestUser = (row: store.UserRow): RequestUser => ({ id: row.id, username: row.username, role: row.role as Role });

export class AuthService {
  readonly enabled: boolean;
  private readonly db: Db;
  private readonly now: () => number;
  private readonly limiter = new FailureLimiter();
  private readonly ended: () => void;

  constructor(options: AuthServiceOptions) {
    this.db = options.db;
    this.enabled = options.enabled;
    this.now = options.now ?? Date.now;
    this.ended = options.onCredentialsEnded ?? (() => {});
  }

  private nowIso(): string {
    return new Date(this.now()).toISOString();
  }

  status(): AuthStatus {
    return { enabled: this.enabled, setup_required: this.enabled && store.userCount(this.db) === 0 };
  }

  /**
   * Who the request acts as: the `local` admin with auth off; with it on, the user of a live
   * session cookie or of a bearer token, else null. A bearer header that names no token is null
   * even when a cookie is valid: a client that sends a wrong token should hear so.
   */
  authenticate(req: IncomingMessage): { user: RequestUser; credential: Credential } | null {
    if (!this.enabled) return { user: LOCAL_USER, credential: { kind: "none" } };
    const token = bearerToken(req.headers.authorization);
    if (token !== undefined) {
      const row = store.tokenUser(this.db, sha256(token), this.nowIso());
      return row === undefined ? null : { user: toRequestUser(row), credential: { kind: "token" } };
    }
    const secret = sessionFromCookieHeader(req.headers.cookie);
    if (secret === undefined) return null;
    const idHash = sha256(secret);
    const row = store.sessionUser(this.db, idHash, this.nowIso());
    return row === undefined ? null : { user: toRequestUser(row), credential: { kind: "session", idHash } };
  }

  /** The first admin, only while there is no user at all. Returns the user and a session secret. */
  async setup(username: string, password: string): Promise<{ user: User; secret: string }> {
    if (!this.enabled) throw conflict("sign-in is off on this board (KANDEV_AUTH=off); there is no account to set up");
    if (store.userCount(this.db) > 0) throw conflict("the board already has its first admin; sign in instead");
    const passwordHash = await hashPassword(password);
    // Checked again in one synchronous transaction: two setups racing make one admin, not two.
    const row = this.db.transaction((tx) => (store.userCount(tx) > 0 ? undefined : store.insertUser(tx, { username, role: "admin", passwordHash })));
    if (row === undefined) throw conflict("the board already has its first admin; sign in instead");
    return { user: toUser(row), secret: this.startSession(row.id) };
  }

  /**
   * Checks a name and password; the same 401 for an unknown name and a wrong password (and the
   * same work, see burnPasswordCheck). Five failures in 15 minutes for a name, or from an
   * address, answer 429 with Retry-After until the window moves on.
   */
  async login(username: string, password: string, clientAddress: string): Promise<{ user: User; secret: string }> {
    const keys = [`user:${username.toLowerCase()}`, `addr:${clientAddress}`];
    const wait = this.limiter.retryAfterSeconds(keys, this.now());
    if (wait > 0)
      throw new HttpError(
        429,
        "RATE_LIMITED",
        `too many failed sign-ins; try again in ${wait} s`,
        { retry_after: wait },
        { "Retry-After": String(wait) },
      );
    const row = store.userByName(this.db, username);
    const ok = row === undefined ? await burnPasswordCheck(password) : await verifyPassword(password, row.passwordHash);
    if (row === undefined || !ok) {
      this.limiter.fail(keys, this.now());
      throw unauthorized(WRONG_CREDENTIALS);
    }
    this.limiter.clear(keys[0]!);
    return { user: toUser(row), secret: this.startSession(row.id) };
  }

  private startSession(userId: string): string {
    store.deleteExpiredSessions(this.db, this.nowIso());
    const secret = newSessionSecret();
    store.insertSession(this.db, { idHash: sha256(secret), userId, expiresAt: new Date(this.now() + SESSION_TTL_MS).toISOString() });
    return secret;
  }

  logout(credential: Credential): void {
    if (credential.kind === "session") store.deleteSession(this.db, credential.idHash);
    this.ended();
  }

  async changeOwnPassword(user: RequestUser, credential: Credential, current: string, next: string): Promise<void> {
    const row = this.existingUser(user.id);
    if (!(await verifyPassword(current, row.passwordHash))) throw unauthorized("the current password is wrong");
    store.setPasswordHash(this.db, row.id, await hashPassword(next));
    store.deleteSessionsOf(this.db, row.id, credential.kind === "session" ? credential.idHash : undefined);
    this.ended();
  }

  listUsers(): User[] {
    return store.listUsers(this.db).map(toUser);
  }

  async createUser(username: string, password: string, role: Role): Promise<User> {
    const row = store.insertUser(this.db, { username, role, passwordHash: await hashPassword(password) });
    if (row === undefined) throw conflict(`a user named ${username} exists`);
    return toUser(row);
  }

  /** Removes a user with their sessions and tokens; never oneself, never the last admin. */
  deleteUser(actor: RequestUser, id: string): void {
    if (actor.id === id) throw conflict("you cannot delete your own account");
    this.db.transaction((tx) => {
      const row = store.getUser(tx, id);
      if (row === undefined) throw notFound(`user ${id}`);
      if (row.role === "admin" && store.adminCount(tx) <= 1) throw conflict("the last admin cannot be deleted");
      store.deleteUser(tx, id);
    });
    this.ended();
  }

  /** An admin sets someone's password; that user's sessions end. */
  async setPassword(id: string, password: string): Promise<void> {
    this.existingUser(id);
    store.setPasswordHash(this.db, id, await hashPassword(password));
    store.deleteSessionsOf(this.db, id);
    this.ended();
  }

  createToken(user: RequestUser, name: string): CreatedToken {
    if (!this.enabled) throw conflict("sign-in is off on this board (KANDEV_AUTH=off); tokens need accounts");
    const token = newApiToken();
    const row = store.insertToken(this.db, { userId: user.id, name, tokenHash: sha256(token) });
    return { id: row.id, name: row.name, token, created_at: row.createdAt };
  }

  /** One's own tokens; an admin sees everyone's, with the owner's name. */
  listTokens(user: RequestUser): ApiToken[] {
    const admin = user.role === "admin";
    return store.listTokens(this.db, admin ? undefined : user.id).map((t) => ({
      id: t.id,
      name: t.name,
      created_at: t.createdAt,
      last_used_at: t.lastUsedAt,
      ...(admin && { username: t.username }),
    }));
  }

  /** Revokes a token: one's own, or any for an admin (someone else's is a 404 to an operator). */
  deleteToken(user: RequestUser, id: string): void {
    const row = store.getToken(this.db, id);
    if (row === undefined || (row.userId !== user.id && user.role !== "admin")) throw notFound(`token ${id}`);
    store.deleteToken(this.db, id);
    this.ended();
  }

  private existingUser(id: string): store.UserRow {
    const row = store.getUser(this.db, id);
    if (row === undefined) throw notFound(`user ${id}`);
    return row;
  }
}

/**
 * The address failed sign-ins are counted for: the peer, or, when the peer is a proxy on this
 * machine, the last address it put in X-Forwarded-For (a client can forge the earlier ones).
 */
export function clientAddress(req: IncomingMessage): string {
  const peer = req.socket.remoteAddress ?? "unknown";
  const forwarded = req.headers["x-forwarded-for"];
  if (isLoopbackAddress(peer) && typeof forwarded === "string") {
    const last = forwarded.split(",").at(-1)?.trim();
    if (last !== undefined && last.length > 0) return last;
  }
  return peer;
}
