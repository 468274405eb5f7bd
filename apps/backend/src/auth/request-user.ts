// Who a request acts as. The server decides once per request (auth/service.ts) and records it
// here; handlers and services read it through requestUser(req).
import type { IncomingMessage } from "node:http";
import type { Role } from "@kandev/protocol";

export interface RequestUser {
  id: string;
  username: string;
  role: Role;
}

/** Who acts on a board without sign-in (loopback only): everything is attributed to `local`. */
export const LOCAL_USERNAME = "local";
/** The one user of a board without sign-in. */
export const LOCAL_USER: RequestUser = Object.freeze({ id: LOCAL_USERNAME, username: LOCAL_USERNAME, role: "admin" });

const users = new WeakMap<IncomingMessage, RequestUser>();

export function setRequestUser(req: IncomingMessage, user: RequestUser): void {
  users.set(req, user);
}

/** The request's user; `local` when the server recorded none (auth off, or a public route). */
export function requestUser(req: IncomingMessage): RequestUser {
  return users.get(req) ?? LOCAL_USER;
}
