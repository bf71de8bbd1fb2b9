import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { type PostgresServer, startPostgresServer } from './postgres-server.js';
import { query, until } from './sync-copy.js';
import { type Service, sleep, startService, Writer } from './sync-harness.js';

/**
 * The PostgreSQL servers, services and pools a test file starts for itself, all stopped in its
 * afterAll whatever happened: services first, then servers, then pools (a pool whose client waits on
 * a lock, in a test that timed out, ends only once its server is gone). `env` is what every service
 * of the file is started with, under what a test gives.
 */
export function ownServers(env: Record<string, string> = {}) {
  const started: { services: Service[]; servers: PostgresServer[]; pools: pg.Pool[]; dirs: string[] } = {
    services: [],
    servers: [],
    pools: [],
    dirs: [],
  };
  afterAll(async () => {
    for (const s of started.services) await Promise.race([s.close().catch(() => undefined), sleep(5000)]);
    for (const s of started.servers.reverse()) await s.stop();
    for (const p of started.pools) await p.end().catch(() => undefined);
    for (const d of started.dirs) rmSync(d, { recursive: true, force: true });
  }, 120_000);
  return {
    async server(options: Parameters<typeof startPostgresServer>[0] = {}): Promise<PostgresServer> {
      const s = await startPostgresServer(options);
      started.servers.push(s);
      return s;
    },
    /** A service on `url`; closing it twice closes it once. */
    async service(url: string, options: Parameters<typeof startService>[1] = {}): Promise<Service> {
      const s = await startService(url, { ...options, env: { ...env, ...options.env } });
      let closing: Promise<void> | undefined;
      const once: Service = { base: s.base, close: () => (closing ??= s.close()) };
      started.services.push(once);
      return once;
    },
    /** A temporary folder, deleted in afterAll. */
    dir(prefix: string): string {
      const d = mkdtempSync(join(tmpdir(), prefix));
      started.dirs.push(d);
      return d;
    },
    pool(url: string): pg.Pool {
      const p = new pg.Pool({ connectionString: url, max: 4 });
      p.on('error', () => undefined); // an idle connection cut off when afterAll stops its server
      started.pools.push(p);
      return p;
    },
  };
}

/**
 * `count` writes of the loss test's writer (test/support/sync-harness.ts) on the database `url`, over
 * tenant A's products and its fillers (the products it moves between stores). No db:import among
 * them: that comes at the 40th.
 */
export async function writerWrites(url: string, count: number): Promise<void> {
  if (count >= 40) throw new Error('the writer imports at its 40th write: keep to fewer');
  const db = new pg.Pool({ connectionString: url, max: 2 });
  const tempDir = mkdtempSync(join(tmpdir(), 'cia-sync-writes-'));
  try {
    const { ids, fillers } = await writerProducts(url);
    const writer = new Writer(db, ids, fillers, url, tempDir);
    const running = writer.run();
    await until(`${count} writes`, async () => writer.writes >= count);
    await writer.stop();
    await running;
  } finally {
    await db.end();
    rmSync(tempDir, { recursive: true, force: true });
  }
}

/** The ids of tenant A's products the writer works on, and its fillers (products it moves between stores). */
export async function writerProducts(url: string): Promise<{ ids: string[]; fillers: string[] }> {
  const rows = await query<{ id: string }>(url, `SELECT id FROM products WHERE tenant_id = 'ten_a' ORDER BY id`);
  // Not the writer's own copies of products into its new stores (their ids grow with each copy).
  const ids = rows.map((r) => r.id).filter((id) => !id.includes('_sto_'));
  return { ids, fillers: ids.filter((id) => id.includes('_f')) };
}
