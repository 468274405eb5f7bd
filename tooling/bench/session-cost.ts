// `npm run bench -- --session-cost`: what each added live session costs the board's side (the
// backend and this host's one agentctl; the agents themselves excluded), against the issue's
// target of at most 15 MB per session. Two boards, one with 1 live session and one with 5 (mock
// agent, each session's first turn done), each read at rest (steadyRss: full GCs, then calm); the
// cost is the difference over the 4 added sessions.
import type { ProductBench } from "./product.js";
import type { RssKb } from "./report.js";

/** The target (issue 37, item 5): board-side MB per added live session. */
export const SESSION_COST_TARGET_MB = 15;

/** One board at rest with `sessions` live sessions. */
export interface CostPoint {
  sessions: number;
  rss: RssKb;
  /** agentctl processes under the backend (one per host is the design). */
  agentctls: number;
}

export interface SessionCost {
  points: CostPoint[];
  /** (board-side RSS at the most sessions - at the fewest) / sessions added, in MB. */
  mbPerAddedSession: number;
  targetMb: number;
  withinTarget: boolean;
}

const mb = (kb: number) => kb / 1024;

/** The cost per added session from two or more points (the fewest and the most sessions). Pure. */
export function sessionCost(points: readonly CostPoint[], targetMb = SESSION_COST_TARGET_MB): SessionCost {
  if (points.length < 2) throw new Error("the session cost needs two session counts");
  const sorted = [...points].sort((a, b) => a.sessions - b.sessions);
  const low = sorted[0]!;
  const high = sorted[sorted.length - 1]!;
  if (high.sessions === low.sessions) throw new Error("the session cost needs two different session counts");
  const total = (p: CostPoint) => p.rss.backend + p.rss.agentctl;
  const mbPerAddedSession = mb(total(high) - total(low)) / (high.sessions - low.sessions);
  return { points: sorted, mbPerAddedSession, targetMb, withinTarget: mbPerAddedSession <= targetMb };
}

/** The figure as text lines, for the bench's stdout. Pure. */
export function renderSessionCost(cost: SessionCost): string {
  const rows = cost.points.map(
    (p) =>
      `  ${String(p.sessions).padStart(3)} live sessions: backend ${mb(p.rss.backend).toFixed(1)} MB, agentctl ${mb(p.rss.agentctl).toFixed(1)} MB` +
      ` (${p.agentctls} process${p.agentctls === 1 ? "" : "es"}), board side ${mb(p.rss.backend + p.rss.agentctl).toFixed(1)} MB`,
  );
  const verdict = cost.withinTarget ? "within" : "OVER";
  return [
    "Session cost (RSS at rest, agents excluded)",
    ...rows,
    `  per added session: ${cost.mbPerAddedSession.toFixed(2)} MB (${verdict} the ${cost.targetMb} MB target)`,
  ].join("\n");
}

export interface SessionCostOptions {
  dir: string;
  counts: readonly number[];
  start: (sessions: number, dir: string) => Promise<ProductBench>;
  steady: (bench: ProductBench) => Promise<RssKb>;
  log: (line: string) => void;
}

/** Starts a board per session count, reads it at rest, stops it; then the cost. */
export async function measureSessionCost(options: SessionCostOptions): Promise<SessionCost> {
  const points: CostPoint[] = [];
  for (const sessions of options.counts) {
    options.log(`session cost: a board with ${sessions} live session(s)`);
    const bench = await options.start(sessions, options.dir);
    try {
      const rss = await options.steady(bench);
      points.push({ sessions, rss, agentctls: bench.agentctlCount() });
      options.log(`session cost: ${sessions} session(s): backend ${rss.backend} kB, agentctl ${rss.agentctl} kB`);
    } finally {
      await bench.close();
    }
  }
  return sessionCost(points);
}
