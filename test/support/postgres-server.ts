import { execFile } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  appendFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '../../src/database/embedded-postgres.js';

const run = promisify(execFile);

/** Debian's PostgreSQL binaries (on this machine and in CI), or PG_BIN. */
function binDir(): string {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).filter((v) => /^\d+$/.test(v)) : [];
  if (versions.length === 0) throw new Error('no PostgreSQL binaries: install postgresql (Debian) or set PG_BIN');
  return join(root, String(Math.max(...versions.map(Number))), 'bin');
}

/** As root, PostgreSQL refuses to run: its commands run as the `postgres` user. */
export const asOwner = (command: string, args: string[]): [string, string[]] =>
  process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];

async function pg(command: string, args: string[]): Promise<string> {
  const [file, argv] = asOwner(join(binDir(), command), args);
  const { stdout } = await run(file, argv, { maxBuffer: 16 << 20 });
  return stdout;
}

/**
 * Runs one of the server's client programs (pg_dump, pg_restore, psql...) of the same version as the
 * servers these tests start, as the user the servers run as; returns its output. Files it reads or
 * writes must be readable or writable by that user.
 */
export const pgTool = pg;

/**
 * A PostgreSQL server of a test's own, in a temporary directory, on a free port: one the test may
 * stop, freeze or replicate without touching anyone else's. `standbyOf` makes a hot standby of another
 * (pg_basebackup, streaming replication), replaying with `applyDelayMs` of lag. `settings` are more
 * lines of postgresql.conf (`max_prepared_transactions = 10`, say).
 */
export interface PostgresServer {
  readonly port: number;
  readonly dataDir: string;
  /** A folder beside the data the servers' owner may write (dumps, say); deleted with the server. */
  readonly dir: string;
  url(database: string): string;
  /** Stops the server for good and deletes its files. */
  stop(): Promise<void>;
  /**
   * Stops the server, cutting every session off (a fast shutdown: these servers run with fsync off, so
   * an immediate one's crash recovery may lose data), keeping its files: `resume` starts it again.
   */
  halt(): Promise<void>;
  /** Starts a halted server again, on the same port with the same data. */
  resume(): Promise<void>;
  /**
   * A cold copy of the server's files (it halts the server for it and starts it again): a folder
   * `startFromCopy` starts the server from.
   */
  copyFiles(): Promise<string>;
  /**
   * Stops the server, puts a copy's files in place of its own and starts it: a server started from a
   * cold copy, a disk snapshot or a base backup without recovery.signal, on the same port.
   */
  startFromCopy(copy: string): Promise<void>;
  /** Whether the standby has replayed everything the primary has written (call on the standby). */
  caughtUpWith(primary: PostgresServer): Promise<boolean>;
  /** Stops a standby's streaming from its primary for good: what the primary commits next never reaches it. */
  stopStreaming(): Promise<void>;
  /** Promotes a standby to a primary of its own (a new timeline), waiting until it accepts writes. */
  promote(): Promise<void>;
  /** Transactions this server has run in a database (reads included): whether it served a test's reads. */
  transactions(database: string): Promise<number>;
}

export async function startPostgresServer(
  options: { standbyOf?: PostgresServer; applyDelayMs?: number; settings?: readonly string[] } = {},
): Promise<PostgresServer> {
  const dir = mkdtempSync(join(tmpdir(), 'cia-own-pg-'));
  chmodSync(dir, 0o755);
  if (process.getuid?.() === 0) chownSync(dir, 101, 104);
  const dataDir = join(dir, 'data');
  const port = await freePort();
  if (options.standbyOf) {
    // A fast checkpoint: the default spreads the backup's checkpoint over minutes.
    const from = ['-h', '127.0.0.1', '-p', String(options.standbyOf.port), '-U', 'postgres'];
    await pg('pg_basebackup', [
      '-D',
      dataDir,
      ...from,
      '--write-recovery-conf',
      '--wal-method=stream',
      '--checkpoint=fast',
    ]);
  } else {
    await pg('initdb', ['-D', dataDir, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--locale=C.UTF-8']);
  }
  const settings = [
    `port = ${port}`,
    `listen_addresses = '127.0.0.1'`,
    `unix_socket_directories = '${dir}'`,
    'wal_level = replica',
    'max_wal_senders = 5',
    'hot_standby = on',
    'fsync = off',
    'synchronous_commit = off',
    'full_page_writes = off',
  ];
  if (options.applyDelayMs) settings.push(`recovery_min_apply_delay = '${options.applyDelayMs}ms'`);
  settings.push(...(options.settings ?? []));
  appendFileSync(join(dataDir, 'postgresql.conf'), `\n${settings.join('\n')}\n`);
  const start = () => pg('pg_ctl', ['-D', dataDir, '-l', join(dir, 'log'), '-w', '-t', '60', 'start']);
  await start();
  const sql = async (target: PostgresServer, query: string): Promise<string> =>
    (
      await pg('psql', [
        '-h',
        '127.0.0.1',
        '-p',
        String(target.port),
        '-U',
        'postgres',
        '-d',
        'postgres',
        '-Atc',
        query,
      ])
    ).trim();
  let copies = 0;
  const server: PostgresServer = {
    port,
    dataDir,
    dir,
    url: (database) => `postgres://postgres@127.0.0.1:${port}/${database}`,
    async stop() {
      await pg('pg_ctl', ['-D', dataDir, '-m', 'immediate', '-w', 'stop']).catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
    async halt() {
      await pg('pg_ctl', ['-D', dataDir, '-m', 'fast', '-w', 'stop']);
    },
    async resume() {
      await start();
    },
    async copyFiles() {
      await server.halt();
      const copy = join(dir, `copy-${copies++}`);
      // -a keeps the owner (the servers run as postgres) and the 0700 mode PostgreSQL insists on.
      await run('cp', ['-a', dataDir, copy]);
      await start();
      return copy;
    },
    async startFromCopy(copy) {
      await server.halt();
      rmSync(dataDir, { recursive: true, force: true });
      await run('cp', ['-a', copy, dataDir]);
      await start();
    },
    async stopStreaming() {
      // postgresql.auto.conf (where pg_basebackup wrote it) wins over postgresql.conf; a reload applies it.
      appendFileSync(join(dataDir, 'postgresql.auto.conf'), `\nprimary_conninfo = ''\n`);
      await sql(server, 'SELECT pg_reload_conf()');
      for (let i = 0; (await sql(server, 'SELECT count(*) FROM pg_stat_wal_receiver')) !== '0'; i++) {
        if (i > 200) throw new Error('the standby goes on streaming');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    async promote() {
      await pg('pg_ctl', ['-D', dataDir, '-w', '-t', '60', 'promote']);
    },
    async transactions(database) {
      return Number(await sql(server, `SELECT xact_commit FROM pg_stat_database WHERE datname = '${database}'`));
    },
    async caughtUpWith(primary) {
      const written = await sql(primary, 'SELECT pg_current_wal_lsn()');
      return (await sql(server, `SELECT pg_last_wal_replay_lsn() >= '${written}'::pg_lsn`)) === 't';
    },
  };
  return server;
}

/** The server's log, for a failing test's message. */
export const serverLog = (server: PostgresServer): string =>
  readFileSync(join(server.dataDir, '..', 'log'), 'utf8').slice(-4000);
