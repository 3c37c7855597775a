/**
 * The few ways the store talks to PostgreSQL, over node-postgres's pool:
 * a parameterised statement, a transaction on one connection, and a
 * connection reserved for a session lock. A connection lost while idle is
 * reported by the next statement that needs it, never as an uncaught error.
 */
// @ts-types="@types/pg"
import pg from "pg";

/** A result row, by column name. */
// deno-lint-ignore no-explicit-any
export type Row = Record<string, any>;

/** Runs one statement: `$1`, `$2`, … in `text` are `params`, never spliced into it. */
export interface Queryable {
  unsafe(text: string, params?: readonly unknown[]): Promise<Row[]>;
}

/** A connection held until `release`. */
export interface Session extends Queryable {
  release(): void;
}

const ignore = () => {};

function queryable(client: pg.PoolClient): Queryable {
  return {
    unsafe: async (text, params = []) => (await client.query(text, params as unknown[])).rows,
  };
}

/** A pool of connections to one database. */
export class Db implements Queryable {
  #pool: pg.Pool;
  /** Settings every connection gets before its first statement (see `setSession`). */
  #session: [string, string][] = [];
  /** The session settings each connection has, as `#sessionKey` said when they were set. */
  #applied = new WeakMap<pg.PoolClient, string>();
  #sessionKey = "";

  /** `url` is a libpq URL; what it leaves out comes from PGHOST, PGUSER, PGPASSWORD, … */
  constructor(url: string, connections: number) {
    this.#pool = new pg.Pool({
      connectionString: url,
      max: connections,
      connectionTimeoutMillis: 10_000,
      application_name: "wayfinder",
    });
    this.#pool.on("error", ignore);
  }

  /**
   * Session settings (`set_config(name, value, false)`) for every
   * connection, applied before its next statement: what lets a search be
   * one statement, one round trip, rather than a transaction around it.
   */
  setSession(settings: Record<string, string>): void {
    this.#session = Object.entries(settings);
    this.#sessionKey = JSON.stringify(this.#session);
  }

  async #prepare(client: pg.PoolClient): Promise<void> {
    if (this.#session.length === 0 || this.#applied.get(client) === this.#sessionKey) return;
    await client.query(
      `SELECT ${this.#session.map((_, i) => `set_config($${2 * i + 1}, $${2 * i + 2}, false)`)}`,
      this.#session.flat(),
    );
    this.#applied.set(client, this.#sessionKey);
  }

  async unsafe(text: string, params: readonly unknown[] = []): Promise<Row[]> {
    if (this.#session.length === 0) return (await this.#pool.query(text, params as unknown[])).rows;
    const client = await this.#pool.connect();
    client.on("error", ignore);
    let failed: Error | undefined;
    try {
      await this.#prepare(client);
      return (await client.query(text, params as unknown[])).rows;
    } catch (error) {
      // As the pool's own `query` does: a connection that failed a statement is not reused.
      failed = error as Error;
      throw error;
    } finally {
      client.off("error", ignore);
      client.release(failed);
    }
  }

  /** Runs `work` in one transaction: committed when it resolves, rolled back when it throws. */
  async begin<T>(work: (tx: Queryable) => Promise<T>, isolation?: string): Promise<T> {
    const client = await this.#pool.connect();
    client.on("error", ignore);
    let broken: Error | undefined;
    try {
      await this.#prepare(client);
      await client.query(isolation ? `BEGIN ISOLATION LEVEL ${isolation}` : "BEGIN");
      const result = await work(queryable(client));
      await client.query("COMMIT");
      return result;
    } catch (error) {
      await client.query("ROLLBACK").catch((lost) => broken = lost);
      throw error;
    } finally {
      client.off("error", ignore);
      client.release(broken);
    }
  }

  /** A connection of its own, for a session-level advisory lock. */
  async reserve(): Promise<Session> {
    const client = await this.#pool.connect();
    client.on("error", ignore);
    return {
      ...queryable(client),
      release: () => {
        client.off("error", ignore);
        // A connection that held a session lock is not reused: closing it frees anything left.
        client.release(true);
      },
    };
  }

  async end(): Promise<void> {
    await this.#pool.end();
  }
}
