import { z } from "zod";

/** Accounts, sign-in and API tokens (docs/API.md "Security model"). */

/** What a role may do is the backend's table (apps/backend/src/auth/roles.ts). */
export const RoleSchema = z.enum(["admin", "operator"]);
export type Role = z.infer<typeof RoleSchema>;

/** Shortest password accepted for an account. */
export const PASSWORD_MIN_LENGTH = 10;
/** Longest password accepted (bounds the work a KDF does for one request). */
export const PASSWORD_MAX_LENGTH = 1024;

/** What every API answer shows in place of an agent profile's `env` value (write-only). */
export const SECRET_MASK = "********";

/** A username: letters, digits, `.`, `_`, `-`, `@`; it appears in commit trailers and the transcript. */
export const UsernameSchema = z
  .string()
  .trim()
  .min(1, "must not be blank")
  .max(64, "must be at most 64 characters")
  .regex(/^[A-Za-z0-9._@-]+$/, "letters, digits, '.', '_', '@' and '-' only");

/** A new password: at least {@link PASSWORD_MIN_LENGTH} characters. */
export const NewPasswordSchema = z
  .string()
  .min(PASSWORD_MIN_LENGTH, `must be at least ${PASSWORD_MIN_LENGTH} characters`)
  .max(PASSWORD_MAX_LENGTH, `must be at most ${PASSWORD_MAX_LENGTH} characters`);

export const UserSchema = z.object({
  id: z.string(),
  username: z.string(),
  role: RoleSchema,
  created_at: z.string(),
});
export type User = z.infer<typeof UserSchema>;

/** `GET /api/v1/auth/me`: who the request acts as (`local` admin when auth is off). */
export const MeSchema = z.object({ id: z.string(), username: z.string(), role: RoleSchema });
export type Me = z.infer<typeof MeSchema>;

/** `GET /api/v1/health` `auth`: whether sign-in is on and whether the first admin is still to be made. */
export const AuthStatusSchema = z.object({ enabled: z.boolean(), setup_required: z.boolean() });
export type AuthStatus = z.infer<typeof AuthStatusSchema>;

export const HealthSchema = z.object({ status: z.literal("ok"), version: z.string(), auth: AuthStatusSchema });
export type Health = z.infer<typeof HealthSchema>;

/** `POST /api/v1/auth/setup` (first admin, new password rules). */
export const SetupBodySchema = z.object({ username: UsernameSchema, password: NewPasswordSchema });
export type SetupBody = z.infer<typeof SetupBodySchema>;

/** `POST /api/v1/auth/login`: any text is tried; a wrong one is a 401 like a wrong name. */
export const LoginBodySchema = z.object({
  username: z.string().max(256),
  password: z.string().max(PASSWORD_MAX_LENGTH),
});
export type LoginBody = z.infer<typeof LoginBodySchema>;

/** `201` of setup, `200` of login (the session cookie comes with it). */
export const SignedInSchema = z.object({ user: UserSchema });
export type SignedIn = z.infer<typeof SignedInSchema>;

/** `POST /api/v1/auth/password`: one's own password; the other sessions of the account end. */
export const ChangePasswordBodySchema = z.object({
  current_password: z.string().max(PASSWORD_MAX_LENGTH),
  new_password: NewPasswordSchema,
});
export type ChangePasswordBody = z.infer<typeof ChangePasswordBodySchema>;

/** `POST /api/v1/users` (admins). */
export const CreateUserBodySchema = z.object({ username: UsernameSchema, password: NewPasswordSchema, role: RoleSchema });
export type CreateUserBody = z.infer<typeof CreateUserBodySchema>;

/** `POST /api/v1/users/:id/password` (admins): sets it; that user's sessions end. */
export const SetUserPasswordBodySchema = z.object({ password: NewPasswordSchema });
export type SetUserPasswordBody = z.infer<typeof SetUserPasswordBodySchema>;

/** `POST /api/v1/tokens`. */
export const CreateTokenBodySchema = z.object({ name: z.string().trim().min(1, "must not be blank").max(200) });
export type CreateTokenBody = z.infer<typeof CreateTokenBodySchema>;

/** `201` of `POST /api/v1/tokens`: `token` (`kdv_...`) is shown this once; the board keeps only its hash. */
export const CreatedTokenSchema = z.object({ id: z.string(), name: z.string(), token: z.string(), created_at: z.string() });
export type CreatedToken = z.infer<typeof CreatedTokenSchema>;

/** `GET /api/v1/tokens` item; `username` (the owner) appears in an admin's list. */
export const ApiTokenSchema = z.object({
  id: z.string(),
  name: z.string(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
  username: z.string().optional(),
});
export type ApiToken = z.infer<typeof ApiTokenSchema>;
