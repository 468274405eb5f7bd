// Preloaded (NODE_OPTIONS="--expose-gc --import <this file>") into the backend the benchmark
// starts, and through the environment it hands down, into every agentctl and agent: on SIGUSR2 the
// process runs a full garbage collection. The memory figures read RSS after one, so they measure
// what is retained rather than how much garbage happened to be waiting for the next collection.
// Nothing else is changed; without the signal the hook does nothing.
if (typeof globalThis.gc === "function") {
  process.on("SIGUSR2", () => globalThis.gc());
}
