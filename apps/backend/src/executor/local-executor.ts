import { ProtocolError } from "@kandev/protocol";
import type { Logger } from "../logger.js";
import { AgentctlClient } from "./agentctl-client.js";
import { StdioTransport } from "./stdio-transport.js";

export interface LocalExecutorOptions {
  /** Path to packages/agentctl/dist/cli.js. */
  agentctlCli: string;
  /** Environment for agentctl (and through it every agent). */
  env: Record<string, string>;
  logger: Logger;
}

interface Running {
  transport: StdioTransport;
  client: AgentctlClient;
}

/**
 * This host's one agentctl: started on the first session that needs it, started again on the next
 * one after it died (its sessions died with it; SessionManager settles them). Every session of
 * the host is multiplexed on its stream.
 */
export class LocalExecutor {
  private current: Running | null = null;
  private starting: Promise<Running> | null = null;
  /** Every agentctl not yet gone, the current one and any still stopping. */
  private readonly alive = new Set<StdioTransport>();
  private closing = false;

  constructor(private readonly options: LocalExecutorOptions) {}

  /** The stream to this host's agentctl, starting it first when none runs. */
  async client(): Promise<AgentctlClient> {
    if (this.closing) throw new ProtocolError("NOT_CONNECTED", "the board is shutting down");
    if (this.current?.client.open) return this.current.client;
    this.starting ??= this.start().finally(() => (this.starting = null));
    return (await this.starting).client;
  }

  private async start(): Promise<Running> {
    const { logger } = this.options;
    const transport = await StdioTransport.start({ agentctlCli: this.options.agentctlCli, env: this.options.env, logger });
    const client = new AgentctlClient(transport, logger);
    const running = { transport, client };
    this.alive.add(transport);
    logger.debug("agentctl started", { pid: transport.pid });
    void client.closed.then((err) => {
      this.alive.delete(transport);
      if (this.current === running) this.current = null;
      if (err !== undefined) logger.warn("agentctl stopped", { pid: transport.pid, error: err.message });
    });
    if (this.closing) {
      await transport.close();
      throw new ProtocolError("NOT_CONNECTED", "the board is shutting down");
    }
    this.current = running;
    return running;
  }

  /** Pids of the agentctl processes alive right now (each leads its own process group). */
  pids(): number[] {
    return [...this.alive].filter((t) => t.alive).map((t) => t.pid);
  }

  /** Stops agentctl (SIGTERM, SIGKILL after the grace), which stops every agent first. */
  async stopAll(): Promise<void> {
    this.closing = true;
    await this.starting?.catch(() => undefined);
    await Promise.all([...this.alive].map((t) => t.close()));
  }

  killAllNow(): void {
    for (const t of this.alive) t.killNow();
  }
}
