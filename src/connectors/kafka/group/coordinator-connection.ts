/**
 * A group member's connections: kafkajs's cluster (the brokers, opened on first use and opened
 * again after a failed attempt) and the group's coordinator (found once; forgotten when it moved
 * or a request to it failed at the connection level, and found again on the next request).
 */
import type { ClientConfig } from "../client.js";
import { kafkajsCluster } from "../client-kafkajs.js";
import type { Any } from "./kafkajs-protocol.js";

export class CoordinatorConnection {
  private conn: Promise<{ cluster: Any; close: () => Promise<void> }> | null = null;
  private coord: Any | null = null;
  private closed = false;

  /** `where` names the member in errors. */
  constructor(
    private readonly cfg: ClientConfig,
    private readonly groupId: string,
    private readonly where: () => string,
  ) {}

  get isClosed(): boolean {
    return this.closed;
  }

  async cluster(): Promise<Any> {
    if (this.closed) throw new Error(`${this.where()}: the member is closed`);
    if (!this.conn) {
      this.conn = kafkajsCluster(this.cfg);
      this.conn.catch(() => {
        this.conn = null;
      });
    }
    return (await this.conn).cluster;
  }

  /** The group coordinator's broker connection. */
  async coordinator(): Promise<Any> {
    if (this.coord) return this.coord;
    const cluster = await this.cluster();
    this.coord = await cluster.findGroupCoordinator({ groupId: this.groupId, coordinatorType: 0 });
    return this.coord;
  }

  /** The coordinator moved (or cannot be reached): find it again on the next request. */
  forgetCoordinator(): void {
    this.coord = null;
  }

  /** Closes the connections for good: cluster() throws from now on. */
  async close(): Promise<void> {
    this.closed = true;
    const conn = this.conn;
    this.conn = null;
    this.coord = null;
    if (conn) await (await conn.catch(() => null))?.close();
  }
}
