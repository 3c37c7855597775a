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

  async unsafe(text: string, params: readonly unknown[] = []): Promise<Row[]> {
    return (await this.#pool.query(text, params as unknown[])).rows;
  }

  /** Runs `work` in one transaction: committed when it resolves, rolled back when it throws. */
  async begin<T>(work: (tx: Queryable) => Promise<T>, isolation?: string): Promise<T> {
    const client = await this.#pool.connect();
    client.on("error", ignore);
    let broken: Error | undefined;
    try {
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
