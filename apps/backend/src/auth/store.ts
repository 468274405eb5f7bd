// The accounts' tables (users, auth_sessions, api_tokens): plain reads and writes, no rules.
import { and, asc, count, eq, gt, lte, ne } from "drizzle-orm";
import type { Role } from "@kandev/protocol";
import type { Db } from "../db/client.js";
import { apiTokens, authSessions, users } from "../db/schema.js";
import { newId, nowIso } from "../repos/util.js";

export type UserRow = typeof users.$inferSelect;
export type TokenRow = typeof apiTokens.$inferSelect;

export function userCount(db: Db): number {
  return db.select({ n: count() }).from(users).get()?.n ?? 0;
}

export function adminCount(db: Db): number {
  return db.select({ n: count() }).from(users).where(eq(users.role, "admin")).get()?.n ?? 0;
}

export function insertUser(db: Db, input: { username: string; role: Role; passwordHash: string }): UserRow | undefined {
  return db
    .insert(users)
    .values({ id: newId(), username: input.username, role: input.role, passwordHash: input.passwordHash, createdAt: nowIso() })
    .onConflictDoNothing()
    .returning()
    .get();
}

export const getUser = (db: Db, id: string): UserRow | undefined => db.select().from(users).where(eq(users.id, id)).get();
export const userByName = (db: Db, username: string): UserRow | undefined => db.select().from(users).where(eq(users.username, username)).get();
export const listUsers = (db: Db): UserRow[] => db.select().from(users).orderBy(asc(users.createdAt), asc(users.username)).all();
export const deleteUser = (db: Db, id: string): boolean => db.delete(users).where(eq(users.id, id)).run().changes > 0;
export const setPasswordHash = (db: Db, id: string, passwordHash: string): boolean =>
  db.update(users).set({ passwordHash }).where(eq(users.id, id)).run().changes > 0;

export function insertSession(db: Db, input: { idHash: string; userId: string; expiresAt: string }): void {
  db.insert(authSessions)
    .values({ ...input, createdAt: nowIso() })
    .run();
}

/** The user of an unexpired session. */
export function sessionUser(db: Db, idHash: string, now: string): UserRow | undefined {
  return db
    .select({ user: users })
    .from(authSessions)
    .innerJoin(users, eq(users.id, authSessions.userId))
    .where(and(eq(authSessions.idHash, idHash), gt(authSessions.expiresAt, now)))
    .get()?.user;
}

export const deleteSession = (db: Db, idHash: string): void => void db.delete(authSessions).where(eq(authSessions.idHash, idHash)).run();
export const deleteExpiredSessions = (db: Db, now: string): number => db.delete(authSessions).where(lte(authSessions.expiresAt, now)).run().changes;

/** Ends every session of a user but `keepHash` (the one changing its password). */
export function deleteSessionsOf(db: Db, userId: string, keepHash?: string): void {
  db.delete(authSessions)
    .where(keepHash === undefined ? eq(authSessions.userId, userId) : and(eq(authSessions.userId, userId), ne(authSessions.idHash, keepHash)))
    .run();
}

export function insertToken(db: Db, input: { userId: string; name: string; tokenHash: string }): TokenRow {
  return db
    .insert(apiTokens)
    .values({ id: newId(), ...input, createdAt: nowIso() })
    .returning()
    .get();
}

/** The owner of a token, with the token row; records when it was used. */
export function tokenUser(db: Db, tokenHash: string, now: string): UserRow | undefined {
  const hit = db
    .select({ user: users, id: apiTokens.id })
    .from(apiTokens)
    .innerJoin(users, eq(users.id, apiTokens.userId))
    .where(eq(apiTokens.tokenHash, tokenHash))
    .get();
  if (hit === undefined) return undefined;
  db.update(apiTokens).set({ lastUsedAt: now }).where(eq(apiTokens.id, hit.id)).run();
  return hit.user;
}

export function listTokens(db: Db, userId?: string): Array<TokenRow & { username: string }> {
  const q = db
    .select({ token: apiTokens, username: users.username })
    .from(apiTokens)
    .innerJoin(users, eq(users.id, apiTokens.userId))
    .orderBy(asc(apiTokens.createdAt), asc(apiTokens.id));
  const rows = userId === undefined ? q.all() : q.where(eq(apiTokens.userId, userId)).all();
  return rows.map((r) => ({ ...r.token, username: r.username }));
}

export const getToken = (db: Db, id: string): TokenRow | undefined => db.select().from(apiTokens).where(eq(apiTokens.id, id)).get();
export const deleteToken = (db: Db, id: string): boolean => db.delete(apiTokens).where(eq(apiTokens.id, id)).run().changes > 0;
