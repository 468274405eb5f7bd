import { z } from "zod";

/** Issue 34: accounts, roles and API tokens (docs/API.md "Security model"). */

/** Admins decide what runs on the host (profiles, repositories, flags, users); operators do the work. */
export const UserRoleSchema = z.enum(["admin", "operator"]);
export type UserRole = z.infer<typeof UserRoleSchema>;

/** Passwords shorter than this are refused with `400 VALIDATION_ERROR`. */
export const MIN_PASSWORD_LENGTH = 10;

/** `GET /api/v1/health`'s `auth`: whether sign-in is on, and whether the first admin is still to be made. */
export const AuthStatusSchema = z.object({ enabled: z.boolean(), setup_required: z.boolean() });
export type AuthStatus = z.infer<typeof AuthStatusSchema>;

/** `GET /api/v1/health` (needs no credentials). */
export const HealthSchema = z.object({
  status: z.string(),
  version: z.string().optional(),
  auth: AuthStatusSchema.optional(),
});
export type Health = z.infer<typeof HealthSchema>;

/** `GET /api/v1/auth/me`: who is asking (`{id: "local", username: "local", role: "admin"}` with auth off). */
export const MeSchema = z.object({ id: z.string(), username: z.string(), role: UserRoleSchema });
export type Me = z.infer<typeof MeSchema>;

/** A board account, as `GET /api/v1/users` lists it. */
export const UserSchema = z.object({ id: z.string(), username: z.string(), role: UserRoleSchema, created_at: z.string() });
export type User = z.infer<typeof UserSchema>;

/** `POST /api/v1/auth/login` and `/auth/setup`. */
export const CredentialsBodySchema = z.object({ username: z.string().min(1), password: z.string().min(1) });
export type CredentialsBody = z.infer<typeof CredentialsBodySchema>;

/** `200 {user}` from login, `201 {user}` from setup. */
export const SignedInSchema = z.object({ user: MeSchema });
export type SignedIn = z.infer<typeof SignedInSchema>;

/** `POST /api/v1/users` (admins). */
export const CreateUserBodySchema = z.object({
  username: z.string().min(1),
  password: z.string().min(MIN_PASSWORD_LENGTH),
  role: UserRoleSchema,
});
export type CreateUserBody = z.infer<typeof CreateUserBodySchema>;

/** `POST /api/v1/auth/password`: one's own password. */
export const ChangePasswordBodySchema = z.object({ current_password: z.string(), new_password: z.string().min(MIN_PASSWORD_LENGTH) });
export type ChangePasswordBody = z.infer<typeof ChangePasswordBodySchema>;

/** `POST /api/v1/users/:id/password` (admins). */
export const SetPasswordBodySchema = z.object({ password: z.string().min(MIN_PASSWORD_LENGTH) });
export type SetPasswordBody = z.infer<typeof SetPasswordBodySchema>;

/** An API token as listed (never its secret); `username` is its owner's, in an admin's list. */
export const ApiTokenSchema = z.object({
  id: z.string(),
  name: z.string(),
  created_at: z.string(),
  last_used_at: z.string().nullable().optional(),
  username: z.string().optional(),
});
export type ApiToken = z.infer<typeof ApiTokenSchema>;

/** `POST /api/v1/tokens {name}` -> `201`: the only time `token` is shown. */
export const CreateTokenBodySchema = z.object({ name: z.string().min(1) });
export type CreateTokenBody = z.infer<typeof CreateTokenBodySchema>;
export const CreatedTokenSchema = z.object({ id: z.string(), name: z.string(), token: z.string(), created_at: z.string() });
export type CreatedToken = z.infer<typeof CreatedTokenSchema>;

/** What `GET /api/v1/agent-profiles` sends in place of an env value: the value is write-only. */
export const MASKED_SECRET = "********";
