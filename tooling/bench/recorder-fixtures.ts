// Recorded round trips for the bench's tests.
import { RunRecorder } from "./recorder.js";

/** Session 0: two round trips; session 1, interleaved: one. */
export function threeRoundTrips(): RunRecorder {
  const r = new RunRecorder();
  // session 0: asked at 1000, seen at 1002, answered from 1003; the agent got it at 1005.
  r.onAsk(0, 1, 1000, null, 1002);
  r.onAnswerStart(0, 1, 1003);
  r.onAsk(0, 2, 1006, 1005, 1009);
  r.onAnswerStart(0, 2, 1010);
  r.onDone(0, 2, 1014);
  r.onAsk(1, 1, 1001, null, 1004);
  r.onAnswerStart(1, 1, 1004.5);
  r.onDone(1, 1, 1006.5);
  return r;
}
