// The floor's agent: the same serial ask/answer pattern as the mock agent's bench-elicit scenario,
// over newline-delimited JSON on stdio, with no protocol, validation or mapping.
//   in:  {"start": <count>}   begins a turn of <count> asks; any other line answers the last ask
//   out: {"s": <session>, "seq": n, "sent_at": ms, "prev": ms|null}   one ask
//        {"s": <session>, "done": true, "count": n, "last": ms|null}   the end of the turn
// Times are performance.timeOrigin + performance.now(), as in the mock agent and the benchmark.
import { createInterface } from "node:readline";

const session = Number(process.argv[2]);
const now = () => performance.timeOrigin + performance.now();
let count = 0;
let seq = 0;

function ask(prev) {
  seq += 1;
  process.stdout.write(`${JSON.stringify({ s: session, seq, sent_at: now(), prev })}\n`);
}

const lines = createInterface({ input: process.stdin });
lines.on("line", (line) => {
  const receivedAt = now();
  const msg = JSON.parse(line);
  if (typeof msg.start === "number") {
    count = msg.start;
    seq = 0;
    ask(null);
    return;
  }
  if (seq < count) ask(receivedAt);
  else process.stdout.write(`${JSON.stringify({ s: session, done: true, count, last: receivedAt })}\n`);
});
lines.on("close", () => process.exit(0));
