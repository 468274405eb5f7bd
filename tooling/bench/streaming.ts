// The streaming pass (issue 35 item 4): each case has N sessions stream a long reply at once, on the
// product and on the relay floor in turn, then a task page of a long transcript opens in Chromium.
import { StreamingFloor } from "./streaming-floor.js";
import { StreamingProduct } from "./streaming-product.js";
import type { StreamCase, StreamingResult } from "./streaming-report.js";
import { streamFigures } from "./streaming-report.js";
import { measureTranscriptPage } from "./transcript-page.js";

/** Characters per chunk, as a model streams (about a token or two). */
export const CHUNK_SIZE = 10;
/** Messages in the task page's transcript. */
export const TRANSCRIPT_MESSAGES = 5000;

export interface StreamingOptions {
  dir: string;
  sessions: readonly number[];
  chunks: readonly number[];
  /** Also open the task page of a long transcript in Chromium. */
  page: boolean;
  quick: boolean;
  chromium: string;
  log: (line: string) => void;
}

export async function measureStreaming(o: StreamingOptions): Promise<StreamingResult> {
  const max = Math.max(...o.sessions);
  o.log(`streaming: starting the floor and the product with ${max} sessions`);
  const floor = await StreamingFloor.start(max, o.dir);
  let product: StreamingProduct | null = null;
  const cases: StreamCase[] = [];
  try {
    product = await StreamingProduct.start(max, o.dir);
    // Unrecorded: the figures are of processes running JIT-compiled code, as on a board in use.
    const warm = Math.min(...o.chunks);
    o.log(`streaming: warm-up, ${max} x ${warm} chunks on each side`);
    await floor.run(max, warm, CHUNK_SIZE);
    await product.run(max, warm, CHUNK_SIZE);
    for (const sessions of o.sessions) {
      for (const chunks of o.chunks) {
        const c = { sessions, chunks, size: CHUNK_SIZE };
        const f = await floor.run(sessions, chunks, CHUNK_SIZE);
        const p = await product.run(sessions, chunks, CHUNK_SIZE);
        cases.push({ ...c, product: p, floor: f });
        const pf = streamFigures(c, p);
        o.log(
          `streaming ${sessions} x ${chunks}: /ws ${pf.wsPerByte.toFixed(2)} B/B, disk ${pf.diskPerByte.toFixed(1)} B/B, ` +
            `last frame ${pf.lastFrameMs.toFixed(1)} ms (floor ${streamFigures(c, f).lastFrameMs.toFixed(1)} ms), ${(p.wallMs / 1000).toFixed(1)} s`,
        );
      }
    }
  } finally {
    await floor.close();
    await product?.close();
  }
  let transcript: StreamingResult["transcript"] = null;
  if (o.page) {
    o.log(`streaming: a task page of ${TRANSCRIPT_MESSAGES} messages in Chromium`);
    try {
      transcript = await measureTranscriptPage({
        dir: o.dir,
        messages: TRANSCRIPT_MESSAGES,
        warmLoads: o.quick ? 2 : 5,
        chromium: o.chromium,
        log: o.log,
      });
    } catch (err) {
      o.log(`transcript: failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
      transcript = { error: err instanceof Error ? err.message.split("\n")[0]! : String(err) };
    }
  }
  return { cases, transcript };
}
