import fs from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
import { setWebRuntimeDefaults } from "./env.js";
import { applySecurityHeaders } from "./http/security-headers.js";
import type { Logger } from "./logger.js";

export type WebHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

interface NextApp {
  prepare(): Promise<void>;
  getRequestHandler(): (req: IncomingMessage, res: ServerResponse) => Promise<void>;
  close?(): Promise<void>;
}
type CreateNext = (options: { dev: boolean; dir: string; hostname?: string; port?: number }) => NextApp;

/** True when apps/web has a production build (`next build` writes BUILD_ID last). */
export function isWebBuilt(webDir: string): boolean {
  return fs.existsSync(path.join(webDir, ".next", "BUILD_ID"));
}

/**
 * Serves every page request with the built Next.js app, in this process, on this origin. `next` is
 * imported only here and only when there is a build to serve, so API-only runs never load it.
 */
export async function createWebHandler(options: {
  serveWeb: boolean;
  webDir: string;
  logger: Logger;
  hostname: string;
  port: number;
}): Promise<{ handle: WebHandler; close(): Promise<void> }> {
  if (!options.serveWeb) {
    return {
      handle: async (_req, res) => plain(res, 404, "This server does not serve the web app (KANDEV_SERVE_WEB=false).\n"),
      close: async () => undefined,
    };
  }
  if (!isWebBuilt(options.webDir)) {
    options.logger.warn("web app not built; pages answer 503", { webDir: options.webDir });
    return {
      handle: async (_req, res) => plain(res, 503, "The Kandev web app is not built. Run `npm run build` at the repository root, then restart.\n"),
      close: async () => undefined,
    };
  }
  setWebRuntimeDefaults();
  // A computed specifier keeps TypeScript from loading next's global type augmentations (they make
  // NodeJS.ProcessEnv.NODE_ENV required across the whole backend); the shape we use is typed above.
  const specifier: string = "next";
  const mod = (await import(specifier)) as { default: CreateNext };
  const app = mod.default({ dev: false, dir: options.webDir, hostname: options.hostname, port: options.port });
  await app.prepare();
  const nextHandle = app.getRequestHandler();
  return {
    handle: async (req, res) => {
      applySecurityHeaders(res, "web");
      await nextHandle(req, res);
    },
    close: async () => {
      await app.close?.();
    },
  };
}

function plain(res: ServerResponse, status: number, text: string): void {
  applySecurityHeaders(res, "api");
  res.writeHead(status, { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" });
  res.end(text);
}
