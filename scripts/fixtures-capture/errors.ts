// The two ways `npm run fixtures:capture` refuses: a bad command line (exit 2, usage shown) and a
// capture that cannot go on (exit 1, message only). Anything else is a bug and prints its stack.

/** A bad command line. */
export class UsageError extends Error {
  override readonly name = "UsageError";
}

/** The capture cannot go on: npm failed, the package has no builders, a fixture is unreadable... */
export class CaptureError extends Error {
  override readonly name = "CaptureError";
}
