import pg from 'pg';
import { KEYS } from './support/dataset.js';
import { type PostgresServer, startPostgresServer } from './support/postgres-server.js';
import {
  COPY_KEYS,
  prepareDatabase,
  ROUTES,
  type Route,
  seededRandom,
  type Service,
  startService,
} from './support/sync-harness.js';
import { staleStoredRows } from './support/stored-rows.js';
import { testTempDir } from './support/temp-dir.js';
import {
  judge,
  shareWithServer,
  spreadCatalog,
  SyncCopy,
  WRITE_PATHS,
  type WritePath,
  type WritePathContext,
} from './support/write-paths.js';

/**
 * A differential test over the ways PostgreSQL writes the tables the synced lists read (issue 30):
 * generated sequences of operations, each of one write path (test/support/write-paths.ts: plain row
 * DML, INSERT … SELECT and COPY carrying old change markers, TRUNCATE, DISABLE TRIGGER,
 * session_replication_role = replica (also after a DISABLE/ENABLE TRIGGER cycle), a re-pointed stock
 * level, a product's id changed, an API client deleted and created again under its id, a client's
 * stores narrowed in a transaction left open while another session inserts into a store it loses, a
 * VAT rate in use deleted where foreign keys do not fire, a data-only dump and restore with and
 * without --disable-triggers), with a round of the sync
 * recipe after every step (changes, then removals; now and then a full walk, as after a refusal), for the
 * products and stock lists,
 * with a key of every store and a key limited to stores. After every operation the oracle: one more
 * round, then each copy equals a fresh full walk field by field, or the round was refused (a 400
 * naming changedSince) and the full walk then makes it equal. Never neither. And every stored row
 * (src/lists/stored-row.ts) holds what a read writes from its row's columns. The database is not
 * reset between operations: what one leaves behind (triggers made ordinary again, say) meets the next.
 *
 * On a PostgreSQL server of the test's own: dump and restore, DISABLE TRIGGER ALL and
 * session_replication_role need a superuser, and pg_dump, pg_restore and psql the server's version.
 *
 * SYNC_PATHS_SEED=n replays a run; SYNC_PATHS_ONLY=<name> runs one form (names in WRITE_PATHS);
 * SYNC_PATHS_ROUNDS=n makes each form n times (2 by default), SYNC_PATHS_LENGTH=n operations a
 * sequence (5 by default): each sequence starts with a first copy. Plain row DML must never make a
 * position refused (it marks its rows: refusing would cost every client a full copy).
 */
const SEED = Number(process.env.SYNC_PATHS_SEED ?? Math.floor(Math.random() * 2 ** 31));
const ONLY = process.env.SYNC_PATHS_ONLY;
const ROUNDS = Number(process.env.SYNC_PATHS_ROUNDS ?? 2);
const LENGTH = Number(process.env.SYNC_PATHS_LENGTH ?? 5);
/** How often a round is a full walk (as a client takes after a refusal) rather than an incremental one. */
const FULL_WALKS = 0.1;

const replay = `SYNC_PATHS_SEED=${SEED}${ONLY ? ` SYNC_PATHS_ONLY=${ONLY}` : ''}`;
console.log(`sync write paths: ${replay}`);

let server: PostgresServer;
let service: Service;
let db: pg.Pool;

beforeAll(async () => {
  server = await startPostgresServer();
  const url = await prepareDatabase(server);
  db = new pg.Pool({ connectionString: url, max: 3 });
  await spreadCatalog(db);
  service = await startService(url);
}, 120_000);

afterAll(async () => {
  await service?.close();
  await db?.end();
  await server?.stop();
});

describe('a copy kept by the sync recipe, whatever way the tables are written', () => {
  it('(the oracle) takes a refused position for what it is: a full walk, then the copy is equal', async () => {
    const copy = new SyncCopy(service, 'stock', KEYS.tenantAStore1, 'stock / limited key');
    expect(await copy.round()).toBe('full walk');
    const position = copy.position!;
    copy.position = `${position.slice(0, -1)}${position.endsWith('A') ? 'B' : 'A'}`; // altered: refused
    expect(await copy.round()).toBe('refused, then a full walk');
    expect(copy.refusals).toBe(1);
    expect(await judge([copy])).toEqual([]);
  });

  it('equals a full walk after every operation, or its position is refused', async () => {
    const forms = WRITE_PATHS.filter((w) => ONLY === undefined || w.name === ONLY);
    if (forms.length === 0)
      throw new Error(`SYNC_PATHS_ONLY=${ONLY}: no such form (${WRITE_PATHS.map((w) => w.name)})`);
    const random = seededRandom(SEED);
    const ctx: WritePathContext = {
      db,
      server,
      database: 'catalog',
      random,
      tempDir: shareWithServer(testTempDir('write-paths')),
      tenant: 'ten_a',
      stores: ['sto_a1', 'sto_a2'],
      limitedClient: 'cli_a_store1',
      serial: 0,
    };
    // Each form ROUNDS times, shuffled, cut into sequences.
    const deck: WritePath[] = Array.from({ length: ROUNDS }, () => forms).flat();
    for (let i = deck.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [deck[i], deck[j]] = [deck[j], deck[i]];
    }
    const failures: { form: string; report: string }[] = [];
    /** How many operations of each form were followed by a refused position (and a full walk). */
    const refusedAfter = new Map<string, number>();
    for (let start = 0, sequence = 1; start < deck.length; start += LENGTH, sequence++) {
      const copies = COPY_KEYS.flatMap((key) =>
        (Object.keys(ROUTES) as Route[]).map((route) => new SyncCopy(service, route, key, `${route} / ${key}`)),
      );
      for (const copy of copies) await copy.round();
      const done: string[] = [];
      for (const [n, form] of deck.slice(start, start + LENGTH).entries()) {
        done.push(`operation ${n + 1}: ${form.name}`);
        const refusalsBefore = copies.reduce((sum, c) => sum + c.refusals, 0);
        try {
          for await (const step of form.run(ctx)) {
            done.push(`  ${step}`);
            for (const copy of copies) await copy.round(random() < FULL_WALKS);
          }
        } catch (error) {
          done.push(`  failed: ${(error as Error).message}`);
          failures.push({
            form: form.name,
            report: `sequence ${sequence}, ${form.name}: ${(error as Error).message}\n    ${done.join('\n    ')}`,
          });
          // The copies start again from a full walk: the next operations are judged on their own.
          for (const copy of copies) await copy.round(true);
          continue;
        }
        const wrong = await judge(copies);
        // A stored row (src/lists/stored-row.ts) is written on every write path: never stale.
        const stale = await staleStoredRows((sql) => db.query(sql));
        if (stale.length > 0)
          failures.push({
            form: form.name,
            report:
              `sequence ${sequence}, after ${form.name}: stored rows differ from the rows a read writes\n    ` +
              `${stale.join('\n    ')}\n    ${done.join('\n    ')}`,
          });
        if (copies.reduce((sum, c) => sum + c.refusals, 0) > refusalsBefore) {
          refusedAfter.set(form.name, (refusedAfter.get(form.name) ?? 0) + 1);
          // Writes that mark their rows must not cost every client a full copy.
          if (form.marked) {
            failures.push({
              form: form.name,
              report: `sequence ${sequence}, after ${form.name}: a position was refused\n    ${done.join('\n    ')}`,
            });
          }
        }
        if (wrong.length > 0) {
          const diff = wrong.map(
            (w) =>
              `${w.label}: ${w.differing} row(s) differ after an ${w.round} round\n      ${w.first.join('\n      ')}`,
          );
          failures.push({
            form: form.name,
            report:
              `sequence ${sequence}, after ${form.name}:\n    ${diff.join('\n    ')}\n` +
              `  operations so far:\n    ${done.join('\n    ')}`,
          });
          for (const copy of copies) await copy.round(true);
        }
      }
    }
    const summary = forms.map((form) => {
      const made = deck.filter((f) => f === form).length;
      const failed = failures.filter((f) => f.form === form.name).length;
      return `${form.name}: ${made} made, ${failed} drifted or failed, ${refusedAfter.get(form.name) ?? 0} refused`;
    });
    console.log(`sync write paths (${replay}):\n  ${summary.join('\n  ')}`);
    if (failures.length > 0) {
      const failing = [...new Set(failures.map((f) => f.form))];
      throw new Error(
        `${replay}: copies drifted from the service silently (or a write path failed) ` +
          `in ${failures.length} operation(s) of: ${failing.join(', ')}\n` +
          failures.map((f) => f.report).join('\n'),
      );
    }
  }, 300_000);
});
