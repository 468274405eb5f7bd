import type { IncomingMessage, ServerResponse } from "node:http";
import { HttpError } from "./errors.js";

/** What a handler returns; the server writes it as JSON. */
export interface Reply {
  status: number;
  body?: unknown;
  /** Extra response headers (e.g. a list's `X-Next-Cursor`). */
  headers?: Record<string, string>;
}

export interface RequestContext {
  req: IncomingMessage;
  res: ServerResponse;
  params: Record<string, string>;
  query: URLSearchParams;
  /** Reads and parses the JSON body (1 MiB limit); throws HttpError on anything else. */
  body(): Promise<unknown>;
}

export type Handler = (ctx: RequestContext) => Reply | Promise<Reply>;

interface Route {
  method: string;
  pattern: string;
  segments: string[];
  handler: Handler;
}

export type RouteMatch =
  | { kind: "found"; handler: Handler; params: Record<string, string> /** As registered, e.g. `/api/v1/tasks/:id`. */; pattern: string }
  | { kind: "method_not_allowed"; allowed: string[] }
  | { kind: "not_found" };

/** Method + path-pattern routing. `:name` segments capture one decoded path segment. */
export class Router {
  private readonly routes: Route[] = [];

  add(method: string, pattern: string, handler: Handler): this {
    this.routes.push({ method: method.toUpperCase(), pattern, segments: split(pattern), handler });
    return this;
  }

  /** Every registered route as `METHOD pattern` (auth/roles.ts's completeness test reads it). */
  list(): string[] {
    return this.routes.map((r) => `${r.method} ${r.pattern}`);
  }

  match(method: string, pathname: string): RouteMatch {
    const parts = split(pathname);
    const allowed: string[] = [];
    for (const route of this.routes) {
      const params = matchSegments(route.segments, parts);
      if (params === null) continue;
      if (route.method === method.toUpperCase()) return { kind: "found", handler: route.handler, params, pattern: route.pattern };
      allowed.push(route.method);
    }
    return allowed.length > 0 ? { kind: "method_not_allowed", allowed: allowed.sort() } : { kind: "not_found" };
  }
}

function split(path: string): string[] {
  return path.split("/").filter((s) => s.length > 0);
}

function matchSegments(pattern: string[], parts: string[]): Record<string, string> | null {
  if (pattern.length !== parts.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i++) {
    const p = pattern[i]!;
    const part = parts[i]!;
    if (p.startsWith(":")) params[p.slice(1)] = decodeSegment(part);
    else if (p !== part) return null;
  }
  return params;
}

function decodeSegment(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    throw new HttpError(400, "BAD_REQUEST", `malformed path segment: ${part}`);
  }
}
