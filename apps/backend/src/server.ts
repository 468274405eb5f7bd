import http, { type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import nodePath from "node:path";
import { agentEnvFrom } from "@kandev/agentctl";
import { BROWSER_WS_PATH, type AgentActionName, type AgentActionParams, type Features } from "@kandev/protocol";
import type { AgentEventMessage } from "./executor/agentctl-client.js";
import { LocalExecutor } from "./executor/local-executor.js";
import { routeAccess, mayAccess } from "./auth/roles.js";
import { setRequestUser } from "./auth/request-user.js";
import { AuthService, forbidden, unauthorized, type Credential } from "./auth/service.js";
import { ClarificationService } from "./clarifications/service.js";
import { openDatabase } from "./db/client.js";
import type { FlagKey, Profile } from "./flags/registry.js";
import { FlagService } from "./flags/service.js";
import { readJsonBody } from "./http/body.js";
import { HttpError, toErrorReply } from "./http/errors.js";
import { isHostAllowed, isOriginAllowed, isStateChanging } from "./http/origin.js";
import { buildRouter } from "./http/routes.js";
import type { Reply } from "./http/router.js";
import { applySecurityHeaders } from "./http/security-headers.js";
import { boardSecrets } from "./lifecycle/redaction.js";
import { SessionManager } from "./lifecycle/session-manager.js";
import { SessionLogs } from "./lifecycle/session-logs.js";
import { LiveStore } from "./lifecycle/store.js";
import { createLogger, type Logger } from "./logger.js";
import { NotificationService } from "./notifications/service.js";
import { resolveExecutable } from "./agents/executable.js";
import type { PresetContext } from "./agents/presets.js";
import { agentctlCliPath, defaultWebDir, mockAgentCliPath } from "./paths.js";
import { upsertBuiltinProfile } from "./repos/profiles.js";
import { createWebHandler } from "./web.js";
import { BrowserHub } from "./ws/hub.js";
import { reconcileWorktrees } from "./workspaces/reconcile.js";
import { WorkspaceService } from "./workspaces/service.js";

/**
 * How long an idle keep-alive connection stays open (Node's default is 5 s). It is sent to clients
 * as `Keep-Alive: timeout=65`, and those that honour it (undici, Node's fetch) close an idle socket
 * a second before the board would, instead of sending on one the board is closing. A client that
 * keeps its sockets longer (a browser) still meets the board's close, but after 65 idle seconds
 * instead of 5. Idle connections cost a socket each; the board has a handful of clients.
 */
export const KEEP_ALIVE_TIMEOUT_MS = 65_000;

/** Options of {@link startServer}; main.ts fills them from the environment, tests directly. */
export interface ServerOptions {
  dbPath: string;
  host?: string;
  /** 0 picks a free port; the bound one is in the result. */
  port?: number;
  profile?: Profile;
  /** Flag values from the environment (top tier of resolution). */
  flagEnv?: Partial<Record<FlagKey, boolean>>;
  allowedOrigins?: string[];
  timeouts?: { elicitationAnswerMs?: number; acpIdleMs?: number };
  serveWeb?: boolean;
  webDir?: string;
  /** Sign-in required (KANDEV_AUTH, env.ts resolveAuth); default off, for a board on loopback. */
  auth?: boolean;
  /** Test seam: the clock of sign-in sessions and the login rate limit. */
  authClock?: () => number;
  /**
   * The board's environment. This host's agentctl, and the agents it starts, get it without the
   * board's settings (`KANDEV_*`) and credential-looking variables; those values are also
   * redacted from what agents emit.
   */
  childEnv?: Record<string, string>;
  logger?: Logger;
  migrationsFolder?: string;
  /** Overrides for the built packages (defaults: resolved through node_modules). */
  agentctlCli?: string;
  mockAgentCli?: string;
  /** How long a ask-tool question waits for the operator (default 2 h). */
  kandevWaitMs?: number;
  /** Ceiling for an agent's ACP initialize (default 5 min). */
  initializeTimeoutMs?: number;
  /** KANDEV_SESSION_IDLE_TIMEOUT in ms: idle agents are stopped after it; absent or 0 = never. */
  sessionIdleTimeoutMs?: number;
  /** Folders whose node_modules/.bin may hold locally installed agents (the presets look there, then in `cwd`). */
  agentDirs?: string[];
  /** The board's working directory (default: the process's). */
  cwd?: string;
  /** Where task worktrees are made (KANDEV_WORKTREES_DIR); default `worktrees` beside the database. */
  worktreesDir?: string;
  /** Test seam: observes each `agent.configure` payload as it is sent. */
  onConfigure?: (sessionId: string, params: AgentActionParams<"agent.configure">) => void;
  /** Test seam: observes every request sent to any agentctl (action + params), e.g. forwarded answers. */
  onAgentRequest?: (sessionId: string, action: AgentActionName, params: unknown) => void;
  /** Test seam: observes every validated agentctl event, e.g. agentctl's own pending ids. */
  onAgentEvent?: (sessionId: string, event: AgentEventMessage) => void;
}

export interface RunningServer {
  url: string;
  port: number;
  /** The features every agentctl of this process receives. */
  features: Features;
  /** Pids of the agentctl processes alive right now: this host's one, if it runs (it leads its own process group). */
  childPids(): number[];
  /** Browser WebSockets connected right now. */
  browserClients(): number;
  /** Stops agentctl children, closes sockets, the HTTP server and the database. Idempotent. */
  close(): Promise<void>;
}

/** The built-in profile: the mock ACP agent, run with the Node that runs the board. */
export const MOCK_PROFILE_ID = "mock";

/**
 * Starts the board: migrations, built-in profile, flags (resolved once), leftover-session
 * reconciliation, then HTTP (REST + pages) and the /ws hub on one port.
 */
export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const logger = options.logger ?? createLogger("info");
  const host = options.host ?? "127.0.0.1";
  const allowedOrigins = options.allowedOrigins ?? [];
  const database = openDatabase(options.dbPath, options.migrationsFolder !== undefined ? { migrationsFolder: options.migrationsFolder } : {});
  const db = database.db;
  upsertBuiltinProfile(db, { id: MOCK_PROFILE_ID, name: "Mock agent", command: [process.execPath, options.mockAgentCli ?? mockAgentCliPath()] });
  const flags = new FlagService(db, options.profile ?? "prod", options.flagEnv ?? {});
  const hub = new BrowserHub({ allowedOrigins, logger });
  const store = new LiveStore(db, hub, { logger });
  const notifications = new NotificationService(db, hub, logger);
  const logs = new SessionLogs({ publisher: hub });
  const cwd = options.cwd ?? process.cwd();
  const boardEnv = options.childEnv ?? {};
  // Filtered before agentctl starts, so neither agentctl's /proc/<pid>/environ nor its agents' hold
  // a board setting or credential; agentctl takes its settings in agent.configure instead.
  const agentEnv = agentEnvFrom(boardEnv);
  const presetContext = (): PresetContext => ({
    searchDirs: [...(options.agentDirs ?? []), cwd],
    resolve: (file) => resolveExecutable(file, { pathEnv: agentEnv.PATH, cwd }),
  });
  const executor = new LocalExecutor({
    agentctlCli: options.agentctlCli ?? agentctlCliPath(),
    env: agentEnv,
    logger,
  });
  // The clarification store and the session manager need each other (an answer is forwarded to a
  // live session; a session's events create clarifications), so the lookup is late-bound.
  let sessions: SessionManager | null = null;
  const clarifications = new ClarificationService({
    store,
    notifications,
    logger,
    features: flags.features(),
    ...(options.kandevWaitMs !== undefined && { kandevWaitMs: options.kandevWaitMs }),
    liveTarget: (sessionId) => sessions?.liveTarget(sessionId),
  });
  const { onConfigure, onAgentRequest } = options;
  // Task worktrees: the service needs the sessions (create, stop, complete) and sees their events.
  let workspaces: WorkspaceService | null = null;
  sessions = new SessionManager({
    store,
    executor,
    logger,
    features: flags.features(),
    timeouts: options.timeouts ?? {},
    defaultProfileId: MOCK_PROFILE_ID,
    clarifications,
    notifications,
    logs,
    agentEnv,
    boardSecrets: boardSecrets(boardEnv),
    cwd,
    ...(options.initializeTimeoutMs !== undefined && { initializeTimeoutMs: options.initializeTimeoutMs }),
    ...(options.sessionIdleTimeoutMs !== undefined && { idleTimeoutMs: options.sessionIdleTimeoutMs }),
    ...((onConfigure !== undefined || onAgentRequest !== undefined) && {
      onAgentRequest: (sessionId: string, action: AgentActionName, params: unknown) => {
        if (action === "agent.configure") onConfigure?.(sessionId, params as AgentActionParams<"agent.configure">);
        onAgentRequest?.(sessionId, action, params);
      },
    }),
    onAgentEvent: (sessionId: string, event: AgentEventMessage) => {
      workspaces?.onAgentEvent(sessionId, event);
      options.onAgentEvent?.(sessionId, event);
    },
  });
  const liveSessions = sessions;
  // Clarifications first: their settle recomputes tasks before the sessions' own reconciliation.
  const orphaned = clarifications.reconcileLeftovers();
  if (orphaned > 0) logger.info("clarifications left pending by a previous run marked agent_disconnected", { count: orphaned });
  const reconciled = sessions.reconcileLeftovers();
  if (reconciled > 0) logger.info("sessions interrupted by the previous run's end marked CANCELLED", { count: reconciled });
  const worktreesDir = options.worktreesDir ?? nodePath.join(nodePath.dirname(options.dbPath), "worktrees");
  workspaces = new WorkspaceService({ store, logger, worktreesDir, publisher: hub, sessions });
  await reconcileWorktrees(store, worktreesDir, logger).catch((err: unknown) =>
    logger.warn("could not check the task worktrees", { error: err instanceof Error ? err.message : String(err) }),
  );
  const profileCheck = () => ({ pathEnv: agentEnv.PATH, boardCwd: cwd });
  const auth = new AuthService({
    db,
    enabled: options.auth ?? false,
    ...(options.authClock !== undefined && { now: options.authClock }),
    onCredentialsEnded: () => hub.closeRevoked(),
  });
  const credentials = new WeakMap<IncomingMessage, Credential>();
  const credential = (req: IncomingMessage): Credential => credentials.get(req) ?? { kind: "none" };
  const router = buildRouter({
    store,
    sessions,
    flags,
    clarifications,
    notifications,
    logs,
    presetContext,
    profileCheck,
    workspaces,
    auth,
    credential,
  });

  const server = http.createServer();
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  server.headersTimeout = KEEP_ALIVE_TIMEOUT_MS + 1_000;
  let web: Awaited<ReturnType<typeof createWebHandler>> | null = null;

  async function handleApi(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    applySecurityHeaders(res, "api");
    let reply: Reply;
    try {
      if (isStateChanging(req.method) && !isOriginAllowed(req.headers.origin, req.headers.host, allowedOrigins)) {
        throw new HttpError(403, "FORBIDDEN_ORIGIN", `origin ${req.headers.origin} may not change state here`);
      }
      const match = router.match(req.method ?? "GET", url.pathname);
      if (match.kind === "not_found") throw new HttpError(404, "NOT_FOUND", `no route for ${req.method} ${url.pathname}`);
      if (match.kind === "method_not_allowed") {
        res.setHeader("Allow", match.allowed.join(", "));
        throw new HttpError(405, "METHOD_NOT_ALLOWED", `${req.method} is not allowed on ${url.pathname}`);
      }
      // Who asks, then whether they may (auth/roles.ts): before the handler reads anything.
      const access = routeAccess(req.method ?? "GET", match.pattern);
      if (access !== "public" || !auth.enabled) {
        const who = auth.authenticate(req);
        if (who === null) {
          if (access !== "public") throw unauthorized();
        } else {
          if (!mayAccess(who.user.role, access)) throw forbidden(`${who.user.role}s may not ${req.method} ${match.pattern}; ask an admin`);
          setRequestUser(req, who.user);
          credentials.set(req, who.credential);
        }
      }
      reply = await match.handler({ req, res, params: match.params, query: url.searchParams, body: () => readJsonBody(req) });
    } catch (err) {
      const e = toErrorReply(err);
      // The agent refusing a change (AGENT_ERROR) is its answer, not the board failing.
      if (e.body.error.code === "AGENT_ERROR") logger.info("the agent refused a request", { path: url.pathname, error: e.body.error.message });
      else if (e.status >= 500)
        logger.error("request failed", { method: req.method, path: url.pathname, error: err instanceof Error ? err.stack : String(err) });
      reply = e;
    }
    if (res.headersSent) return;
    const text = reply.body === undefined ? "" : JSON.stringify(reply.body);
    res.writeHead(reply.status, { ...reply.headers, "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store" });
    res.end(text);
  }

  server.on("request", (req: IncomingMessage, res: ServerResponse) => {
    let url: URL;
    try {
      url = new URL(req.url ?? "/", "http://localhost");
    } catch {
      res.writeHead(400).end();
      return;
    }
    if (!isHostAllowed(req.headers.host, host, allowedOrigins)) {
      // DNS rebinding (http/origin.ts): refused before any route, page or read runs.
      applySecurityHeaders(res, "api");
      res.writeHead(403, { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store" });
      res.end(JSON.stringify(forbiddenHost(req.headers.host)));
      return;
    }
    const path = url.pathname;
    const done = (p: Promise<void>) =>
      p.catch((err: unknown) => {
        logger.error("unhandled request error", { path, error: err instanceof Error ? err.stack : String(err) });
        if (!res.headersSent) res.writeHead(500, { "Content-Type": "text/plain" });
        res.end();
      });
    if (path === "/api" || path.startsWith("/api/")) return void done(handleApi(req, res, url));
    if (path === BROWSER_WS_PATH) {
      applySecurityHeaders(res, "api");
      res.writeHead(426, { "Content-Type": "text/plain; charset=utf-8", Upgrade: "websocket" }).end("WebSocket endpoint\n");
      return;
    }
    if (web === null) {
      applySecurityHeaders(res, "api");
      res.writeHead(503, { "Content-Type": "text/plain; charset=utf-8" }).end("Starting up\n");
      return;
    }
    return void done(web.handle(req, res));
  });

  server.on("upgrade", (req: IncomingMessage, socket, head: Buffer) => {
    if (!isHostAllowed(req.headers.host, host, allowedOrigins)) {
      const body = JSON.stringify(forbiddenHost(req.headers.host));
      socket.end(
        `HTTP/1.1 403 Forbidden\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
      return;
    }
    const path = new URL(req.url ?? "/", "http://localhost").pathname;
    if (path !== BROWSER_WS_PATH) {
      socket.end("HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n");
      return;
    }
    if (auth.authenticate(req) === null) {
      const body = JSON.stringify({
        error: { code: "UNAUTHORIZED", message: "sign in first: /ws needs the kandev_session cookie or a bearer token" },
      });
      socket.end(
        `HTTP/1.1 401 Unauthorized\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
      return;
    }
    hub.handleUpgrade(req, socket, head, () => auth.authenticate(req) !== null);
  });
  server.on("clientError", (_err, socket) => {
    if (socket.writable) socket.end("HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n");
  });

  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(options.port ?? 0, host, () => {
        server.off("error", reject);
        resolve();
      });
    });
  } catch (err) {
    hub.close();
    database.close();
    throw err;
  }
  const port = (server.address() as AddressInfo).port;
  try {
    web = await createWebHandler({ serveWeb: options.serveWeb ?? true, webDir: options.webDir ?? defaultWebDir(), logger, hostname: host, port });
  } catch (err) {
    // Nothing may stay listening or open when the start fails.
    hub.close();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    database.close();
    throw err;
  }
  const urlHost = host.includes(":") ? `[${host}]` : host;

  let closing: Promise<void> | null = null;
  return {
    url: `http://${urlHost}:${port}`,
    port,
    features: flags.features(),
    childPids: () => executor.pids(),
    browserClients: () => hub.clientCount,
    close: () =>
      (closing ??= (async () => {
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
        hub.close();
        workspaces?.close();
        await liveSessions.shutdown();
        server.closeAllConnections();
        await stopped;
        await web?.close();
        // The shutdown rule of writes the database refused: one last try, then what is left is lost (logged).
        store.close();
        database.close();
      })()),
  };
}

/** The 403 body of a request whose Host the board does not know (DNS rebinding). */
function forbiddenHost(host: string | undefined): { error: { code: string; message: string } } {
  return {
    error: {
      code: "FORBIDDEN_HOST",
      message: `host ${JSON.stringify(host)} is not this board's; open it by IP or localhost, or list its origin in KANDEV_ALLOWED_ORIGINS`,
    },
  };
}
