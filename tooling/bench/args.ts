// Command line of `npm run bench`, parsed without I/O so every rule is unit-tested.

export const USAGE = `npm run bench [-- options]

  --sessions 1,10,50     concurrent sessions per run (default 1,10,50; --quick 1,5)
  --round-trips N        question/answer round trips per session and run (default 200; --quick 10)
  --warmup N             unrecorded round trips per session before the first pass, so every
                         process runs JIT-compiled code as it does after minutes of use
                         (default 3000; --quick 5)
  --pending N            elicitations held pending at once for the memory figure (default 1000)
  --growth N             round trips of the "no growth" check (default 10000; --quick 0 = skipped)
  --paced-rate Q         the latency pass offers Q questions/s across all sessions (default 100;
                         0 = report the latency of the saturated pass instead)
  --lean                 also run a lean board in the paced passes: the same processes and hops
                         doing the least any board must on a question (a durable record before
                         its push), so the product's own weight shows beside the floor
  --quick                a smoke run that finishes in under a minute (small counts, no board)
  --board, --no-board    measure the board in Chromium or not (default: yes; --quick: no)
  --json                 print the result as one JSON object, last on stdout
  --samples FILE         also write every sample of the paced passes to FILE, one JSON object per
                         line (side, block, session, request, start time, latency), replacing it
  --streaming            only the streaming pass: 1 and 10 sessions each streaming /e2e:flood
                         replies of 2,000 and 8,000 chunks of 10 characters (--quick: 500 and
                         2,000) beside a relay floor; /ws and disk bytes per byte of text, CPU per
                         chunk, the last frame's delay; and a task page of 5,000 messages in
                         Chromium (unless --no-board)
  --no-streaming         leave the streaming pass out of the full run
  --stream-sessions L    the streaming pass's session counts (default 1,10)
  --stream-chunks L      the streaming pass's reply lengths in chunks (default 2000,8000)
  --session-cost         only measure what each added live session costs the board side (backend
                         + its one agentctl, agents excluded) with 1 and 5 sessions, against the
                         15 MB target (session-cost.ts), and print that
  -h, --help             this text

Needs the built packages (npm run build); the board measurement also needs apps/web/.next and
Chromium at /usr/bin/chromium (override with KANDEV_BENCH_CHROMIUM).`;

export interface BenchArgs {
  sessions: number[];
  roundTrips: number;
  warmup: number;
  pending: number;
  growth: number;
  pacedRate: number;
  quick: boolean;
  /** Also measure the lean board (floor/lean-*.mjs) in the paced passes (--lean). */
  lean: boolean;
  board: boolean;
  json: boolean;
  help: boolean;
  /** Where to write the paced passes' samples (--samples), or null. */
  samplesFile: string | null;
  /** Only the session-cost pass (--session-cost). */
  sessionCost: boolean;
  /** Run the streaming pass (default: in a full run, not with --quick). */
  streaming: boolean;
  /** Only the streaming pass (--streaming). */
  streamingOnly: boolean;
  streamSessions: number[];
  streamChunks: number[];
}

/** A bad command line; the message says what to fix. */
export class UsageError extends Error {}

const MAX_SESSIONS = 500;

function positiveInt(flag: string, text: string | undefined, { allowZero = false, max = 10_000_000 } = {}): number {
  if (text === undefined || !/^\d+$/.test(text))
    throw new UsageError(`${flag} needs a whole number, got ${text === undefined ? "nothing" : JSON.stringify(text)}`);
  const n = Number(text);
  if ((!allowZero && n < 1) || n > max) throw new UsageError(`${flag} must be between ${allowZero ? 0 : 1} and ${max}, got ${n}`);
  return n;
}

/** Parses `--sessions 1,10,50` (or another list flag's value) into sorted, distinct counts. */
export function parseSessionList(text: string | undefined, flag = "--sessions", max = MAX_SESSIONS): number[] {
  if (text === undefined || text.trim() === "") throw new UsageError(`${flag} needs a list such as 1,10,50`);
  const counts = text.split(",").map((s) => positiveInt(flag, s.trim(), { max }));
  return [...new Set(counts)].sort((a, b) => a - b);
}

/** The most chunks a streaming reply may have: the mock agent's MAX_FLOOD_CHUNKS. */
const MAX_STREAM_CHUNKS = 100_000;

/** Parses argv (without node and the script); `--flag=value` and `--flag value` both work. */
export function parseBenchArgs(argv: readonly string[]): BenchArgs {
  const tokens = argv.flatMap((a) => (a.startsWith("--") && a.includes("=") ? [a.slice(0, a.indexOf("=")), a.slice(a.indexOf("=") + 1)] : [a]));
  const given: Partial<
    Record<"sessions" | "roundTrips" | "warmup" | "pending" | "growth" | "pacedRate" | "streamSessions" | "streamChunks", string>
  > = {};
  const out = { quick: false, lean: false, json: false, help: false, sessionCost: false, streamingOnly: false, samplesFile: null as string | null };
  let streaming: boolean | undefined;
  let board: boolean | undefined;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    const value = () => {
      const v = tokens[++i];
      if (v === undefined || v.startsWith("--")) throw new UsageError(`${t} needs a value`);
      return v;
    };
    switch (t) {
      case "--sessions":
        given.sessions = value();
        break;
      case "--round-trips":
        given.roundTrips = value();
        break;
      case "--warmup":
        given.warmup = value();
        break;
      case "--pending":
        given.pending = value();
        break;
      case "--growth":
        given.growth = value();
        break;
      case "--paced-rate":
        given.pacedRate = value();
        break;
      case "--quick":
        out.quick = true;
        break;
      case "--lean":
        out.lean = true;
        break;
      case "--board":
        board = true;
        break;
      case "--no-board":
        board = false;
        break;
      case "--json":
        out.json = true;
        break;
      case "--samples": {
        const file = value();
        if (file.trim() === "") throw new UsageError("--samples needs a file name");
        out.samplesFile = file;
        break;
      }
      case "--session-cost":
        out.sessionCost = true;
        break;
      case "--streaming":
        out.streamingOnly = true;
        break;
      case "--no-streaming":
        streaming = false;
        break;
      case "--stream-sessions":
        given.streamSessions = value();
        break;
      case "--stream-chunks":
        given.streamChunks = value();
        break;
      case "-h":
      case "--help":
        out.help = true;
        break;
      default:
        throw new UsageError(`unknown option ${JSON.stringify(t)}`);
    }
  }
  if (out.streamingOnly && streaming === false) throw new UsageError("--streaming and --no-streaming contradict each other");
  return {
    ...out,
    board: board ?? !out.quick,
    streaming: out.streamingOnly || (streaming ?? !out.quick),
    streamSessions: given.streamSessions === undefined ? [1, 10] : parseSessionList(given.streamSessions, "--stream-sessions", 100),
    streamChunks:
      given.streamChunks === undefined
        ? out.quick
          ? [500, 2000]
          : [2000, 8000]
        : parseSessionList(given.streamChunks, "--stream-chunks", MAX_STREAM_CHUNKS),
    sessions: given.sessions === undefined ? (out.quick ? [1, 5] : [1, 10, 50]) : parseSessionList(given.sessions),
    roundTrips: given.roundTrips === undefined ? (out.quick ? 10 : 200) : positiveInt("--round-trips", given.roundTrips),
    warmup: given.warmup === undefined ? (out.quick ? 5 : 3000) : positiveInt("--warmup", given.warmup, { allowZero: true, max: 100_000 }),
    pending: given.pending === undefined ? 1000 : positiveInt("--pending", given.pending, { max: 100_000 }),
    growth: given.growth === undefined ? (out.quick ? 0 : 10_000) : positiveInt("--growth", given.growth, { allowZero: true }),
    pacedRate: given.pacedRate === undefined ? 100 : positiveInt("--paced-rate", given.pacedRate, { allowZero: true, max: 100_000 }),
  };
}
