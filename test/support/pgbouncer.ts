import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort } from '../../src/database/embedded-postgres.js';
import { asOwner, type PostgresServer } from './postgres-server.js';

const run = promisify(execFile);

/** Debian's PgBouncer, or PGBOUNCER_PATH. */
export const PGBOUNCER = process.env.PGBOUNCER_PATH ?? '/usr/sbin/pgbouncer';

export interface Pooler {
  port: number;
  version: string;
  stop(): Promise<void>;
  log(): string;
}

/**
 * PgBouncer in transaction mode in front of `server`'s database `catalog`, on a free port, with
 * `connections` server connections at most (its pool, and its budget of PostgreSQL's).
 */
export async function startPgBouncer(server: PostgresServer, connections: number): Promise<Pooler> {
  const dir = mkdtempSync(join(tmpdir(), 'cia-pgbouncer-'));
  chmodSync(dir, 0o755);
  const port = await freePort();
  // The settings docs/operations.md asks for, nothing more.
  writeFileSync(
    join(dir, 'pgbouncer.ini'),
    [
      '[databases]',
      `catalog = host=127.0.0.1 port=${server.port} dbname=catalog`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      "unix_socket_dir = ''",
      'auth_type = trust',
      `auth_file = ${join(dir, 'users.txt')}`,
      'admin_users = postgres',
      'pool_mode = transaction',
      'max_client_conn = 500',
      `default_pool_size = ${connections}`,
      `max_db_connections = ${connections}`,
      `logfile = ${join(dir, 'pgbouncer.log')}`,
      `pidfile = ${join(dir, 'pgbouncer.pid')}`,
      '',
    ].join('\n'),
  );
  writeFileSync(join(dir, 'users.txt'), '"postgres" ""\n');
  // PgBouncer refuses to run as root: as the owner of the PostgreSQL files, as they are.
  if (process.getuid?.() === 0) chownSync(dir, 101, 104);
  for (const file of ['pgbouncer.ini', 'users.txt']) if (process.getuid?.() === 0) chownSync(join(dir, file), 101, 104);
  const [file, args] = asOwner(PGBOUNCER, [join(dir, 'pgbouncer.ini')]);
  const child: ChildProcess = spawn(file, args, { stdio: 'ignore' });
  const log = () => {
    try {
      return readFileSync(join(dir, 'pgbouncer.log'), 'utf8').slice(-4000);
    } catch {
      return '';
    }
  };
  const deadline = Date.now() + 20_000;
  for (;;) {
    const client = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:${port}/pgbouncer` });
    const up = await client.connect().then(
      () => true,
      () => false,
    );
    await client.end().catch(() => undefined);
    if (up) break;
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`pgbouncer did not start:\n${log()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const { stdout } = await run(PGBOUNCER, ['--version']);
  return {
    port,
    version: stdout.trim().split('\n')[0],
    log,
    async stop() {
      child.kill('SIGTERM');
      await new Promise((r) => (child.exitCode === null ? child.once('exit', r) : r(null)));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
