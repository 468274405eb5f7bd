import type { IncomingMessage } from "node:http";
import { MAX_BODY_BYTES } from "@kandev/protocol";
import { HttpError } from "./errors.js";

/** Past this much discarded input we stop being polite and drop the connection. */
const DRAIN_LIMIT_BYTES = 16 * MAX_BODY_BYTES;

/**
 * Reads a JSON request body of at most `limit` bytes. An oversized body is drained (up to a bound)
 * before the 413 goes out, so the client reads the answer instead of a reset connection.
 * An empty body reads as `undefined`, which the route's schema then rejects or accepts.
 */
export async function readJsonBody(req: IncomingMessage, limit: number = MAX_BODY_BYTES): Promise<unknown> {
  const text = await readText(req, limit);
  if (text.trim().length === 0) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw new HttpError(400, "BAD_REQUEST", `body is not valid JSON: ${err instanceof Error ? err.message : String(err)}`);
  }
}

function readText(req: IncomingMessage, limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    const declared = Number(req.headers["content-length"]);
    if (Number.isFinite(declared) && declared > limit) tooLarge = true;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) tooLarge = true;
      if (tooLarge) {
        chunks.length = 0;
        if (size > DRAIN_LIMIT_BYTES) req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => {
      if (tooLarge) reject(payloadTooLarge(limit));
      else resolve(Buffer.concat(chunks).toString("utf8"));
    });
    req.on("error", (err) => reject(tooLarge ? payloadTooLarge(limit) : new HttpError(400, "BAD_REQUEST", `could not read body: ${err.message}`)));
    req.on("close", () => {
      if (!req.complete) reject(tooLarge ? payloadTooLarge(limit) : new HttpError(400, "BAD_REQUEST", "request aborted"));
    });
  });
}

function payloadTooLarge(limit: number): HttpError {
  return new HttpError(413, "PAYLOAD_TOO_LARGE", `body is larger than ${limit} bytes`);
}
