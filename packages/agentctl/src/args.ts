/** Parsed command line of agentctl. */
export interface CliArgs {
  port: number;
  host: string;
  token: string | undefined;
  /** `--no-stdin-watch`: do not exit when stdin ends (for running by hand with stdin at /dev/null). */
  watchStdin: boolean;
}

/** Parses `--port N [--host H] [--token T] [--no-stdin-watch]`; throws an Error with a readable message. */
export function parseArgs(argv: readonly string[]): CliArgs {
  const out: CliArgs = { port: 0, host: "127.0.0.1", token: undefined, watchStdin: true };
  let sawPort = false;
  for (let i = 0; i < argv.length; i += 1) {
    const raw = argv[i]!;
    const eq = raw.indexOf("=");
    const flag = raw.startsWith("--") && eq > 0 ? raw.slice(0, eq) : raw;
    const inline = raw.startsWith("--") && eq > 0 ? raw.slice(eq + 1) : undefined;
    const value = (): string => {
      if (inline !== undefined) return inline;
      const next = argv[i + 1];
      if (next === undefined || next.startsWith("--")) throw new Error(`${flag} needs a value`);
      i += 1;
      return next;
    };
    switch (flag) {
      case "--port": {
        const v = value();
        const port = Number(v);
        if (!/^\d+$/.test(v) || port > 65535) throw new Error(`--port must be an integer 0-65535, got "${v}"`);
        out.port = port;
        sawPort = true;
        break;
      }
      case "--host":
        out.host = value();
        break;
      case "--token":
        out.token = value();
        break;
      case "--no-stdin-watch":
        out.watchStdin = false;
        break;
      default:
        throw new Error(`unknown argument "${raw}" (usage: agentctl --port N [--host H] [--token T])`);
    }
  }
  if (!sawPort) throw new Error("--port is required (use --port 0 for any free port)");
  return out;
}
