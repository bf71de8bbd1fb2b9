import { createCipheriv, createHash, createHmac, hkdfSync } from 'node:crypto';
import { INCARNATION_SQL } from '../src/schema/sync-state.js';
import { KEYS, testDataset } from './support/dataset.js';
import { seededRandom } from './support/sync-harness.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/**
 * A sync position is a value the service made for one API client, list and store, and tells nothing
 * else: any other value given as changedSince (out of range, from the future, altered, another
 * client's, tenant's, list's or store's) is a 400 naming changedSince, never a 500 and never rows.
 * Altered positions are generated (POSITION_SEED=n replays a run).
 */
const SEED = Number(process.env.POSITION_SEED ?? Math.floor(Math.random() * 2 ** 31));

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ dataset: testDataset(), env: { RATE_LIMIT_PER_MINUTE: '1000000' } });
});
afterAll(async () => t.close());

const PRODUCTS = '/v1/catalog/products?activeOnly=false&pageSize=100';
const STOCK = '/v1/inventory/stock?activeOnly=false&pageSize=100';

async function positionOf(path: string, key: string): Promise<string> {
  const res = await t.get(path, key).expect(200);
  return res.headers['sync-position'];
}

async function expectRefused(path: string, key: string = KEYS.tenantA): Promise<string> {
  const res = await t.http().get(path).set('Authorization', `Bearer ${key}`);
  expect({ path, status: res.status }).toEqual({ path, status: 400 });
  expect(res.body.error.code).toBe('validation_failed');
  const names = res.body.error.details.errors.map((e: { name: string }) => e.name);
  expect({ path, names }).toEqual({ path, names: ['changedSince'] });
  return res.body.error.details.errors[0].message;
}

/**
 * A position sealed as versions before this one did: bound to the list, tenant, client and store, and
 * to the database when `incarnation` is given (not to the client's creation).
 */
async function sealAsBefore(parts: readonly unknown[], xact: string, incarnation: string | null): Promise<string> {
  const [{ value }] = await t.db.query(`SELECT value FROM service_secrets WHERE name = 'cursor_signing_key'`);
  const derived = Buffer.from(hkdfSync('sha256', Buffer.from(value, 'utf8'), Buffer.alloc(0), 'sync-position', 64));
  const parted = createHash('sha256').update(JSON.stringify(parts)).digest();
  const binding =
    incarnation === null ? parted : createHash('sha256').update(parted).update(`\0${incarnation}`).digest();
  const plain = Buffer.alloc(8);
  plain.writeBigUInt64BE(BigInt(xact));
  const iv = createHmac('sha256', derived.subarray(32)).update(binding).update(plain).digest().subarray(0, 12);
  const cipher = createCipheriv('aes-256-gcm', derived.subarray(0, 32), iv).setAAD(binding);
  const sealed = Buffer.concat([iv, cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
  return `sp_${sealed.toString('base64url')}`;
}

describe('a sync position', () => {
  it('tells nothing: two positions a transaction apart look unrelated', async () => {
    const position = await positionOf(PRODUCTS, KEYS.tenantA);
    expect(position).toMatch(/^sp_[A-Za-z0-9_-]{59}$/);
    // Not the counter in another base: two positions a transaction apart share no prefix or suffix.
    await t.db.query(`UPDATE products SET name = name || '.' WHERE id = 'prd_a1_cola'`);
    const later = await positionOf(PRODUCTS, KEYS.tenantA);
    expect(later).not.toBe(position);
    expect(later.slice(0, 8)).not.toBe(position.slice(0, 8));
    expect(later.slice(-8)).not.toBe(position.slice(-8));
  });

  it('is taken by the round it was made for', async () => {
    const position = await positionOf(PRODUCTS, KEYS.tenantA);
    await t.get(`${PRODUCTS}&changedSince=${position}`, KEYS.tenantA).expect(200);
    const key2 = await t.get(`${PRODUCTS}&changedSince=${position}`, KEYS.tenantASecond).expect(200);
    expect(key2.headers['sync-position']).toMatch(/^sp_/); // every key of the client may use it
  });

  it.each([
    ['a 19-digit value past the 64-bit range', 'sp_9223372036854775808'],
    ['the largest 19-digit value', 'sp_9999999999999999999'],
    ['a legacy value from the future', 'sp_9223372036854775807'],
    ['a legacy value far in the future', 'sp_1000000000000'],
  ])('%s is a 400 on both lists', async (_name, position) => {
    await expectRefused(`${PRODUCTS}&changedSince=${position}`);
    await expectRefused(`${STOCK}&changedSince=${position}`);
  });

  it('of another client, tenant, list or store is a 400', async () => {
    const own = await positionOf(PRODUCTS, KEYS.tenantA);
    const ownStore = await positionOf(`${PRODUCTS}&storeId=sto_a1`, KEYS.tenantA);
    const otherClient = await positionOf(PRODUCTS, KEYS.tenantAStore1);
    const otherTenant = await positionOf(PRODUCTS, KEYS.tenantB);
    await expectRefused(`${PRODUCTS}&changedSince=${otherClient}`);
    await expectRefused(`${PRODUCTS}&changedSince=${otherTenant}`);
    await expectRefused(`${PRODUCTS}&changedSince=${own}`, KEYS.tenantB);
    await expectRefused(`${STOCK}&changedSince=${own}`);
    await expectRefused(`${PRODUCTS}&storeId=sto_a1&changedSince=${own}`);
    await expectRefused(`${PRODUCTS}&changedSince=${ownStore}`);
    await t.get(`${PRODUCTS}&storeId=sto_a1&changedSince=${ownStore}`, KEYS.tenantA).expect(200);
  });

  it('altered in any way is a 400 (generated alterations)', async () => {
    const random = seededRandom(SEED);
    const position = await positionOf(STOCK, KEYS.tenantA);
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const body = position.slice(3);
    const tried = new Set<string>();
    for (let n = 0; n < 60; n++) {
      const chars = [...body];
      const changes = 1 + Math.floor(random() * 3);
      for (let c = 0; c < changes; c++) {
        chars[Math.floor(random() * chars.length)] = alphabet[Math.floor(random() * alphabet.length)];
      }
      const altered = `sp_${chars.join('')}`;
      if (altered === position || tried.has(altered)) continue;
      tried.add(altered);
      try {
        await expectRefused(`${STOCK}&changedSince=${altered}`);
      } catch (error) {
        throw new Error(`POSITION_SEED=${SEED}: ${altered} (from ${position}) was not refused`, { cause: error });
      }
    }
    expect(tried.size).toBeGreaterThan(50);
  });

  it('from before positions named their database (sp_ and a transaction) is taken only by the database that was upgraded', async () => {
    const [{ xact }] = await t.db.query(`SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS xact`);
    // This test's database is a copy of the run's migrated template: another database.
    expect(await expectRefused(`${PRODUCTS}&changedSince=sp_${xact}`)).toMatch(/another database/);
    // As if the FailSafeSync migration had run here.
    await t.db.query(`UPDATE sync_state SET legacy_incarnation = (${INCARNATION_SQL})`);
    const res = await t.get(`${PRODUCTS}&changedSince=sp_${xact}`, KEYS.tenantA).expect(200);
    expect(res.headers['sync-position']).toMatch(/^sp_[A-Za-z0-9_-]{59}$/);
    // Older than everything of the test data: refused, never silently taken: by what its load voided, if
    // it voided anything, else because the client was created after it (the data is loaded after the
    // migrations; an upgraded database's clients predate them: created_xact 0).
    const [{ voided }] = await t.db.query(`SELECT void_xact > 0 AS voided FROM sync_state`);
    expect(await expectRefused(`${PRODUCTS}&changedSince=sp_1`)).toMatch(voided ? /marked no rows/ : /created again/);
  });

  it('sealed by the version before positions named their database: taken by the upgraded database only', async () => {
    // Sealed as that version did: the list, tenant, client and store as associated data, nothing else.
    const [{ xact }] = await t.db.query(`SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS xact`);
    const old = await sealAsBefore(['products', 'ten_a', 'cli_a_all', null], xact, null);

    await t.db.query(`UPDATE sync_state SET legacy_incarnation = 'another database'`);
    expect(await expectRefused(`${PRODUCTS}&changedSince=${old}`)).toMatch(/another database/);
    await t.db.query(`UPDATE sync_state SET legacy_incarnation = (${INCARNATION_SQL})`);
    const res = await t.get(`${PRODUCTS}&changedSince=${old}`, KEYS.tenantA).expect(200);
    expect(res.headers['sync-position']).not.toBe(old);
  });

  it('sealed without the client’s creation (versions before): taken by that client, refused once it is made again', async () => {
    // As versions before sealing the client's creation did: the list, tenant, client, store and the database.
    const [{ xact, incarnation }] = await t.db.query(
      `SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS xact, ${INCARNATION_SQL} AS incarnation`,
    );
    const [{ created }] = await t.db.query(
      `SELECT created_xact::text AS created FROM api_clients WHERE id = 'cli_a_store1'`,
    );
    expect(BigInt(created)).toBeGreaterThan(0n);
    const old = await sealAsBefore(['products', 'ten_a', 'cli_a_store1', null], xact, incarnation);
    const res = await t.get(`${PRODUCTS}&changedSince=${old}`, KEYS.tenantAStore1).expect(200);
    // What it hands out now is sealed for the client's creation.
    expect(res.headers['sync-position']).not.toBe(old);
    const sealed = res.headers['sync-position'];
    await t.get(`${PRODUCTS}&changedSince=${sealed}`, KEYS.tenantAStore1).expect(200);
    // Not later than the client's creation: it may be an earlier client's of this id.
    const before = await sealAsBefore(['products', 'ten_a', 'cli_a_store1', null], created, incarnation);
    expect(await expectRefused(`${PRODUCTS}&changedSince=${before}`, KEYS.tenantAStore1)).toMatch(
      /was handed out before your API client was created again under the same id/,
    );
    // The client deleted and made again under its id (as db:import --replace does).
    await t.db.transaction(async (m) => {
      await m.query(`CREATE TEMP TABLE again ON COMMIT DROP AS SELECT * FROM api_clients WHERE id = 'cli_a_store1'`);
      await m.query(
        `CREATE TEMP TABLE again_keys ON COMMIT DROP AS SELECT * FROM api_keys WHERE client_id = 'cli_a_store1'`,
      );
      await m.query(`DELETE FROM api_clients WHERE id = 'cli_a_store1'`);
      await m.query(`INSERT INTO api_clients SELECT * FROM again`);
      await m.query(`INSERT INTO api_keys SELECT * FROM again_keys`);
    });
    for (const path of [PRODUCTS, '/v1/catalog/product-removals?pageSize=100']) {
      // Sealed without its creation: refused by its transaction, with what happened.
      expect(await expectRefused(`${path}&changedSince=${old}`, KEYS.tenantAStore1)).toMatch(
        /was handed out before your API client was created again under the same id/,
      );
      // Sealed for the earlier client's creation: it does not open for this one.
      expect(await expectRefused(`${path}&changedSince=${sealed}`, KEYS.tenantAStore1)).toMatch(
        /was not handed out to this API client .*or your API client was created again under the same id since/,
      );
    }
    const fresh = await positionOf(PRODUCTS, KEYS.tenantAStore1);
    await t.get(`${PRODUCTS}&changedSince=${fresh}`, KEYS.tenantAStore1).expect(200);
  });

  it('is refused while another BEFORE ROW trigger fires after the marker trigger (it could undo a change unseen)', async () => {
    // A stranger's trigger that keeps the old marker: without the guard, the rename below reaches no copy.
    await t.db.query(`CREATE FUNCTION keep_marker() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN NEW.change_xact := OLD.change_xact; RETURN NEW; END $$`);
    await t.db.query(
      `CREATE TRIGGER zz_keep_marker BEFORE UPDATE ON products FOR EACH ROW EXECUTE FUNCTION keep_marker()`,
    );
    try {
      const position = await positionOf(PRODUCTS, KEYS.tenantA);
      await t.db.query(`UPDATE products SET name = name || ' (renamed)' WHERE id = 'prd_a1_cola'`);
      expect(await expectRefused(`${PRODUCTS}&changedSince=${position}`)).toMatch(/BEFORE ROW trigger/);
      // One that fires before it (names sort first) changes nothing the marker trigger does not see.
      await t.db.query(`ALTER TRIGGER zz_keep_marker ON products RENAME TO a_keep_marker`);
      const later = await positionOf(PRODUCTS, KEYS.tenantA);
      await t.db.query(`UPDATE products SET name = name || ' again' WHERE id = 'prd_a1_cola'`);
      const res = await t.get(`${PRODUCTS}&changedSince=${later}`, KEYS.tenantA).expect(200);
      expect(res.body.rows.map((r: { id: string }) => r.id)).toContain('prd_a1_cola');
    } finally {
      await t.db.query(`DROP TRIGGER IF EXISTS zz_keep_marker ON products`);
      await t.db.query(`DROP TRIGGER IF EXISTS a_keep_marker ON products`);
      await t.db.query(`DROP FUNCTION keep_marker()`);
    }
  });

  it('says that a full copy is needed', async () => {
    const message = await expectRefused(`${PRODUCTS}&changedSince=sp_9223372036854775808`);
    expect(message).toMatch(/full copy/);
  });
});
