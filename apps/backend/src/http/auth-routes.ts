// Sign-in, accounts and API tokens (docs/API.md "Security model"). Thin: the rules are
// auth/service.ts's; who may call what is auth/roles.ts's, checked by the server before these run.
import type { IncomingMessage } from "node:http";
import {
  ChangePasswordBodySchema,
  CreateTokenBodySchema,
  CreateUserBodySchema,
  LoginBodySchema,
  SetUserPasswordBodySchema,
  SetupBodySchema,
} from "@kandev/protocol";
import { clearedSessionCookie, isSecureRequest, sessionCookie } from "../auth/cookie.js";
import { requestUser } from "../auth/request-user.js";
import { clientAddress, type AuthService, type Credential } from "../auth/service.js";
import type { Router } from "./router.js";

const secure = (req: IncomingMessage): boolean =>
  isSecureRequest({
    encrypted: (req.socket as { encrypted?: boolean }).encrypted === true,
    forwardedProto: typeof req.headers["x-forwarded-proto"] === "string" ? req.headers["x-forwarded-proto"] : undefined,
    remoteAddress: req.socket.remoteAddress,
  });

export function addAuthRoutes(router: Router, deps: { auth: AuthService; credential: (req: IncomingMessage) => Credential }): void {
  const { auth, credential } = deps;

  router.add("POST", "/api/v1/auth/setup", async (ctx) => {
    const body = SetupBodySchema.parse(await ctx.body());
    const { user, secret } = await auth.setup(body.username, body.password);
    return { status: 201, body: { user }, headers: { "Set-Cookie": sessionCookie(secret, secure(ctx.req)) } };
  });
  router.add("POST", "/api/v1/auth/login", async (ctx) => {
    const body = LoginBodySchema.parse(await ctx.body());
    const { user, secret } = await auth.login(body.username, body.password, clientAddress(ctx.req));
    return { status: 200, body: { user }, headers: { "Set-Cookie": sessionCookie(secret, secure(ctx.req)) } };
  });
  router.add("POST", "/api/v1/auth/logout", (ctx) => {
    auth.logout(credential(ctx.req));
    return { status: 204, headers: { "Set-Cookie": clearedSessionCookie(secure(ctx.req)) } };
  });
  router.add("GET", "/api/v1/auth/me", (ctx) => {
    const { id, username, role } = requestUser(ctx.req);
    return { status: 200, body: { id, username, role } };
  });
  router.add("POST", "/api/v1/auth/password", async (ctx) => {
    const body = ChangePasswordBodySchema.parse(await ctx.body());
    await auth.changeOwnPassword(requestUser(ctx.req), credential(ctx.req), body.current_password, body.new_password);
    return { status: 204 };
  });

  router.add("POST", "/api/v1/users", async (ctx) => {
    const body = CreateUserBodySchema.parse(await ctx.body());
    return { status: 201, body: await auth.createUser(body.username, body.password, body.role) };
  });
  router.add("GET", "/api/v1/users", () => ({ status: 200, body: auth.listUsers() }));
  router.add("DELETE", "/api/v1/users/:id", (ctx) => {
    auth.deleteUser(requestUser(ctx.req), ctx.params.id!);
    return { status: 204 };
  });
  router.add("POST", "/api/v1/users/:id/password", async (ctx) => {
    const body = SetUserPasswordBodySchema.parse(await ctx.body());
    await auth.setPassword(ctx.params.id!, body.password);
    return { status: 204 };
  });

  router.add("POST", "/api/v1/tokens", async (ctx) => {
    const body = CreateTokenBodySchema.parse(await ctx.body());
    return { status: 201, body: auth.createToken(requestUser(ctx.req), body.name) };
  });
  router.add("GET", "/api/v1/tokens", (ctx) => ({ status: 200, body: auth.listTokens(requestUser(ctx.req)) }));
  router.add("DELETE", "/api/v1/tokens/:id", (ctx) => {
    auth.deleteToken(requestUser(ctx.req), ctx.params.id!);
    return { status: 204 };
  });
}
