import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { SESSION_COST_TARGET_MB, renderSessionCost, sessionCost } from "./session-cost.js";

const point = (sessions: number, backendMb: number, agentctlMb: number) => ({
  sessions,
  rss: { backend: backendMb * 1024, agentctl: agentctlMb * 1024 },
  agentctls: 1,
});

describe("sessionCost", () => {
  test("board-side MB per added session, from the fewest and the most sessions, in any order", () => {
    const cost = sessionCost([point(5, 100, 80), point(1, 90, 70)]);
    assert.equal(cost.mbPerAddedSession, 5);
    assert.equal(cost.withinTarget, true);
    assert.equal(cost.targetMb, SESSION_COST_TARGET_MB);
    assert.deepEqual(
      cost.points.map((p) => p.sessions),
      [1, 5],
    );
  });

  test("over the target is reported as such", () => {
    assert.equal(sessionCost([point(1, 90, 80), point(5, 90, 160)]).withinTarget, false);
  });

  test("needs two different session counts", () => {
    assert.throws(() => sessionCost([point(1, 1, 1)]), /two session counts/);
    assert.throws(() => sessionCost([point(1, 1, 1), point(1, 2, 2)]), /two different/);
  });

  test("renders each board and the verdict", () => {
    const text = renderSessionCost(sessionCost([point(1, 90, 70), point(5, 100, 80)]));
    assert.match(text, /1 live sessions: backend 90\.0 MB, agentctl 70\.0 MB \(1 process\)/);
    assert.match(text, /per added session: 5\.00 MB \(within the 15 MB target\)/);
  });
});
