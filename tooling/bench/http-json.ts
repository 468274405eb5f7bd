// A small JSON-over-HTTP client on one keep-alive agent, as a browser would reuse connections.
// node:http rather than fetch: it costs the benchmark's own process less CPU per request, and
// that process shares the machine with what it measures.
import http from "node:http";

export interface JsonReply<T = unknown> {
  status: number;
  body: T;
}

export class JsonClient {
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 256 });

  constructor(readonly base: string) {}

  get<T = unknown>(path: string): Promise<JsonReply<T>> {
    return this.send<T>("GET", path, undefined);
  }

  post<T = unknown>(path: string, body: unknown): Promise<JsonReply<T>> {
    return this.send<T>("POST", path, body === undefined ? "" : JSON.stringify(body));
  }

  /** POST with a body that is already JSON text (the operator sends the same answer many times). */
  postText<T = unknown>(path: string, text: string): Promise<JsonReply<T>> {
    return this.send<T>("POST", path, text);
  }

  close(): void {
    this.agent.destroy();
  }

  private async send<T>(method: string, path: string, text: string | undefined): Promise<JsonReply<T>> {
    try {
      return await this.once<T>(method, path, text);
    } catch (err) {
      // A kept-alive socket the server closed while idle fails before the request is read; Node's
      // documented remedy is to retry such a request once on a fresh socket. Fresh means a new
      // connection: the pool may hold more sockets the server closed at the same moment (every
      // session's, after a pause longer than the server's keep-alive timeout).
      if (!(err instanceof StaleSocketError)) throw err;
      return this.once<T>(method, path, text, false);
    }
  }

  private once<T>(method: string, path: string, text: string | undefined, pooled = true): Promise<JsonReply<T>> {
    return new Promise((resolve, reject) => {
      const url = new URL(path, this.base);
      const headers: http.OutgoingHttpHeaders = { accept: "application/json" };
      if (text !== undefined) {
        headers["content-type"] = "application/json";
        headers["content-length"] = Buffer.byteLength(text);
      }
      const req = http.request(
        { host: url.hostname, port: url.port, path: url.pathname + url.search, method, headers, agent: pooled ? this.agent : false },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () => {
            const raw = Buffer.concat(chunks).toString("utf8");
            let body: unknown = raw;
            try {
              body = raw.length > 0 ? JSON.parse(raw) : undefined;
            } catch {
              // not JSON: keep the text for the error message
            }
            resolve({ status: res.statusCode ?? 0, body: body as T });
          });
          res.on("error", reject);
        },
      );
      req.on("error", (err: NodeJS.ErrnoException) => {
        reject(req.reusedSocket && (err.code === "ECONNRESET" || err.message === "socket hang up") ? new StaleSocketError(err.message) : err);
      });
      req.end(text);
    });
  }
}

class StaleSocketError extends Error {}

/** "HTTP 503 {...}" for an error message; an empty body (undefined) is said so. */
export function describeReply(reply: JsonReply, limit = 500): string {
  const body = reply.body === undefined ? "(empty body)" : JSON.stringify(reply.body).slice(0, limit);
  return `HTTP ${reply.status} ${body}`;
}

/** Throws unless the reply has the expected status, with the body in the message. */
export function expectStatus<T>(reply: JsonReply<T>, status: number, what: string): T {
  if (reply.status !== status) throw new Error(`${what}: ${describeReply(reply)}`);
  return reply.body;
}
