import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { testDataset } from './support/dataset.js';
import { createTestApp, type TestApp } from './support/test-app.js';

const run = promisify(execFile);
let t: TestApp;

beforeAll(async () => {
  // Lookups cached as in production (2 s), to prove that changes still land within 5 s.
  t = await createTestApp({ dataset: testDataset(), config: { authCacheTtlMs: 2000 } });
});
afterAll(async () => t.close());

async function admin(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['dist/tools/cli/admin.js', ...args], {
      env: { ...process.env, DATABASE_URL: t.databaseUrl, APP_ENV: 'development' },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

async function rowCounts(): Promise<string> {
  return JSON.stringify(
    await t.db.query('SELECT (SELECT count(*) FROM api_clients) AS clients, (SELECT count(*) FROM api_keys) AS keys'),
  );
}

/** Polls until the API answers `status` for the key; returns how long it took. */
async function waitForStatus(key: string, status: number, withinMs: number): Promise<number> {
  const started = Date.now();
  for (;;) {
    const res = await t.get('/v1/catalog/products?pageSize=1', key);
    if (res.status === status) return Date.now() - started;
    if (Date.now() - started > withinMs) throw new Error(`still ${res.status} after ${withinMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A client of tenant ten_a made by clients:create --json, as the command prints it. */
async function createClient(name: string, scopes: string, ...more: string[]) {
  const created = await admin(
    'clients:create',
    '--tenant',
    'ten_a',
    '--name',
    name,
    '--scopes',
    scopes,
    ...more,
    '--json',
  );
  expect({ code: created.code, stderr: created.stderr }).toEqual({ code: 0, stderr: '' });
  return JSON.parse(created.stdout);
}

describe('npm run admin', () => {
  it('creates a client, issues a key that works at once, and revocation reaches the running server within 5 s', async () => {
    const created = await admin(
      'clients:create',
      '--tenant',
      'ten_a',
      '--name',
      'Delivery app',
      '--scopes',
      'catalog.products.read,inventory.stock.read',
      '--stores',
      'sto_a1',
      '--rate-limit',
      '120',
      '--json',
    );
    expect(created.stderr).toBe('');
    const client = JSON.parse(created.stdout);
    expect(client).toMatchObject({
      tenantId: 'ten_a',
      name: 'Delivery app',
      status: 'ACTIVE',
      allowedStoreIds: ['sto_a1'],
      rateLimitPerMinute: 120,
      activeKeys: 0,
    });

    const issued = await admin('keys:issue', '--client', client.id);
    expect(issued.code).toBe(0);
    const key = /(ck_test_[A-Za-z0-9]{32,64})/.exec(issued.stdout)![1];
    expect(issued.stdout).toContain('only time the key is shown');
    const stored = await t.db.query('SELECT key_digest, key_hint FROM api_keys WHERE client_id = $1', [client.id]);
    expect(stored).toHaveLength(1);
    expect(JSON.stringify(stored)).not.toContain(key);
    expect(stored[0].key_hint).toBe(`ck_test_…${key.slice(-4)}`);

    const res = await t.get('/v1/catalog/products?pageSize=100', key).expect(200);
    expect(res.body.rows.every((r: { storeId: string }) => r.storeId === 'sto_a1')).toBe(true);
    expect(res.headers['ratelimit-policy']).toBe('"per-client";q=120;w=60');
    await t.get('/v1/catalog/categories', key).expect(403);

    const listed = await admin('keys:list', '--client', client.id);
    expect(listed.stdout).toContain(`ck_test_…${key.slice(-4)}`);
    expect(listed.stdout).not.toContain(key);
    const keyId = JSON.parse((await admin('keys:list', '--client', client.id, '--json')).stdout)[0].id;

    expect((await admin('keys:revoke', keyId)).code).toBe(0);
    expect(await waitForStatus(key, 401, 5000)).toBeLessThanOrEqual(5000);
    expect(JSON.parse((await admin('keys:list', '--client', client.id, '--json')).stdout)[0]).toMatchObject({
      status: 'revoked',
    });
  });

  it('disable, enable and revoke a client take effect on the running server within 5 s', async () => {
    const client = await createClient('ERP', 'catalog.products.read');
    const key = JSON.parse(
      (await admin('keys:issue', '--client', client.id, '--expires', '2099-01-01', '--json')).stdout,
    ).key;
    await t.get('/v1/catalog/products', key).expect(200);
    expect((await admin('clients:disable', client.id)).stdout).toContain('DISABLED');
    await waitForStatus(key, 401, 5000);
    expect((await admin('clients:enable', client.id)).code).toBe(0);
    await waitForStatus(key, 200, 5000);
    expect((await admin('clients:revoke', client.id)).code).toBe(0);
    await waitForStatus(key, 401, 5000);
    const again = await admin('clients:enable', client.id);
    expect(again.code).not.toBe(0);
    expect(again.stderr.trim()).toMatch(/^Error: client "cli_\w+" is revoked/);
  });

  it('refuses every bad input with one line, a non-zero exit and nothing written', async () => {
    const before = await rowCounts();
    for (const [args, message] of [
      [
        ['clients:create', '--tenant', 'ten_zz', '--name', 'x', '--scopes', 'catalog.products.read'],
        /no tenant "ten_zz"/,
      ],
      [
        ['clients:create', '--tenant', 'ten_a', '--name', 'x', '--scopes', 'catalog.products.read,catalog.everything'],
        /unknown scope "catalog.everything"/,
      ],
      [
        [
          'clients:create',
          '--tenant',
          'ten_a',
          '--name',
          'x',
          '--scopes',
          'catalog.products.read',
          '--stores',
          'sto_a1,sto_b1',
        ],
        /no store "sto_b1" in tenant "ten_a"/,
      ],
      [
        [
          'clients:create',
          '--tenant',
          'ten_a',
          '--name',
          'x',
          '--scopes',
          'catalog.products.read',
          '--rate-limit',
          'lots',
        ],
        /--rate-limit/,
      ],
      [['clients:create', '--tenant', 'ten_a', '--scopes', 'catalog.products.read'], /--name is required/],
      [['keys:issue', '--client', 'cli_a_all', '--expires', '2026-02-30'], /--expires: "2026-02-30" is not a date/],
      [['keys:issue', '--client', 'cli_a_all', '--expires', '2020-01-01'], /must be in the future/],
      [['keys:issue', '--client', 'cli_nope'], /no client "cli_nope"/],
      [['keys:issue', '--client', 'cli_a_revoked'], /is revoked/],
      [['keys:revoke', 'key_nope'], /no key "key_nope"/],
      [['keys:list'], /--client is required/],
      [['keys:issue', '--client', 'cli_a_all', '--frobnicate'], /Unknown option '--frobnicate'/],
      [['clients:disable'], /exactly one id/],
      [
        [
          'clients:create',
          '--tenant',
          'ten_a',
          '--tenant',
          'ten_b',
          '--name',
          'x',
          '--scopes',
          'catalog.products.read',
        ],
        /--tenant is given more than once/,
      ],
      [['keys:issue', '--client', 'cli_a_all', '--client', 'cli_b_all'], /--client is given more than once/],
      [['clients:explode'], /Unknown command "clients:explode"/],
    ] as const) {
      const res = await admin(...args);
      expect([args, res.code === 0]).toEqual([args, false]);
      expect(res.stderr.trim().split('\n')).toHaveLength(1);
      expect(res.stderr).toMatch(message);
      expect(res.stdout).toBe('');
    }
    expect(await rowCounts()).toBe(before);
  });

  it('has --help for the tool and every command, and lists clients as a table or JSON', async () => {
    const help = await admin('--help');
    expect(help.code).toBe(0);
    for (const command of [
      'clients:create',
      'clients:update',
      'clients:list',
      'clients:disable',
      'clients:enable',
      'clients:revoke',
      'keys:issue',
      'keys:list',
      'keys:revoke',
    ]) {
      expect(help.stdout).toContain(command);
      const own = await admin(command, '--help');
      expect([command, own.code]).toEqual([command, 0]);
      expect(own.stdout).toContain(`npm run admin -- ${command}`);
    }
    const table = await admin('clients:list', '--tenant', 'ten_b');
    expect(table.stdout.split('\n')[0]).toMatch(/^ID\s+TENANT\s+NAME\s+STATUS/);
    expect(table.stdout).toContain('cli_b_all');
    expect(table.stdout).not.toContain('cli_a_all');
    const json = JSON.parse((await admin('clients:list', '--json')).stdout);
    expect(json.map((c: { id: string }) => c.id)).toEqual(expect.arrayContaining(['cli_a_all', 'cli_b_all']));
    const keys = await admin('keys:list', '--client', 'cli_a_all');
    expect(keys.stdout).not.toMatch(/ck_test_[A-Za-z0-9]{32}/);
  });

  it('clients:list fits 100 columns, with every scope and store; --json keeps every field', async () => {
    const stores = ['sto_a1', 'sto_a2'];
    const client = await createClient(
      'A long integration name, as people write them',
      'catalog.products.read,catalog.categories.read,catalog.promotions.read,inventory.stock.read',
      '--stores',
      stores.join(','),
    );
    const listed = await admin('clients:list');
    const lines = listed.stdout.trimEnd().split('\n');
    const widest = lines.reduce((a, b) => (b.length > a.length ? b : a), '');
    expect([widest.length <= 100, widest]).toEqual([true, widest]);
    const block = lines.slice(lines.findIndex((l) => l.startsWith(client.id)));
    for (const scope of client.scopes) expect(block.slice(0, 4).join(' ')).toContain(scope);
    expect(block.slice(0, 4).join(' ')).toContain('stores: sto_a1, sto_a2');
    const json = JSON.parse((await admin('clients:list', '--json')).stdout);
    expect(json.find((c: { id: string }) => c.id === client.id)).toEqual(client);
  });

  it('keys:revoke of a revoked key says so, changes nothing, and exits 0', async () => {
    const client = await createClient('Revoke twice', 'catalog.products.read');
    const keyId = JSON.parse((await admin('keys:issue', '--client', client.id, '--json')).stdout).id;
    const first = await admin('keys:revoke', keyId);
    expect(first).toMatchObject({ code: 0, stdout: expect.stringContaining('is revoked') });
    const [{ revoked_at: revokedAt }] = await t.db.query('SELECT revoked_at FROM api_keys WHERE id = $1', [keyId]);
    const again = await admin('keys:revoke', keyId);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(
      new RegExp(`^Key ${keyId} \\(.+\\) was already revoked \\(at .+\\): nothing changed\\.\n$`),
    );
    const [{ revoked_at: after }] = await t.db.query('SELECT revoked_at FROM api_keys WHERE id = $1', [keyId]);
    expect(after).toEqual(revokedAt);
  });

  it('clients:update changes the name, scopes, stores and rate limit, in one write each', async () => {
    const created = await createClient('Shelf labels', 'catalog.products.read');
    const update = async (...args: string[]) => {
      const res = await admin('clients:update', created.id, ...args, '--json');
      expect({ args, code: res.code, stderr: res.stderr }).toEqual({ args, code: 0, stderr: '' });
      return JSON.parse(res.stdout);
    };
    expect(await update('--stores', 'sto_a1')).toMatchObject({ allowedStoreIds: ['sto_a1'] });
    expect(await update('--add-stores', 'sto_a2')).toMatchObject({ allowedStoreIds: ['sto_a1', 'sto_a2'] });
    expect(await update('--remove-stores', 'sto_a1')).toMatchObject({ allowedStoreIds: ['sto_a2'] });
    expect(await update('--stores', 'all')).toMatchObject({ allowedStoreIds: null });
    expect(
      await update(
        '--name',
        'Shelf labels 2',
        '--scopes',
        'catalog.products.read,inventory.stock.read',
        '--rate-limit',
        '90',
      ),
    ).toMatchObject({
      name: 'Shelf labels 2',
      scopes: ['catalog.products.read', 'inventory.stock.read'],
      rateLimitPerMinute: 90,
      allowedStoreIds: null,
    });
    expect(await update('--rate-limit', 'default')).toMatchObject({ rateLimitPerMinute: null });
    const plain = await admin('clients:update', created.id, '--stores', 'sto_a2');
    expect(plain.stdout).toContain(`Client ${created.id} (Shelf labels 2)`);
    expect(plain.stdout).toContain('sto_a2');
  });

  it('clients:update refuses every bad input with one line, a non-zero exit and nothing written', async () => {
    const before = JSON.stringify(await t.db.query('SELECT * FROM api_clients ORDER BY id'));
    for (const [args, message] of [
      [['nope', '--name', 'X'], /no client "nope"/],
      [['cli_a_revoked', '--name', 'X'], /revoked/],
      [['cli_a_store1'], /nothing to change/],
      [['cli_a_store1', '--stores', 'sto_b1'], /--stores: no store "sto_b1" in tenant "ten_a"/],
      [['cli_a_store1', '--stores', 'bad id!'], /--stores: "bad id!" is not a valid id/],
      [['cli_a_store1', '--add-stores', 'sto_zz'], /--add-stores: no store "sto_zz"/],
      [['cli_a_store1', '--remove-stores', 'sto_a2'], /--remove-stores: the client may not see "sto_a2"/],
      [['cli_a_store1', '--remove-stores', 'sto_a1'], /would see no store/],
      [['cli_a_all', '--remove-stores', 'sto_a1'], /may see every store/],
      [['cli_a_store1', '--stores', 'sto_a1', '--add-stores', 'sto_a2'], /cannot be combined/],
      [['cli_a_store1', '--rate-limit', '1.5'], /--rate-limit: "1.5" is not a whole number/],
      [['cli_a_store1', '--rate-limit', '0'], /--rate-limit: give a whole number/],
      [['cli_a_store1', '--scopes', 'catalog.everything'], /--scopes: unknown scope "catalog.everything"/],
      [['cli_a_store1', '--name', ' '], /--name: give a name/],
      [['cli_a_store1', '--stores', 'sto_a1', '--stores', 'sto_a2'], /--stores is given more than once/],
      [['cli_a_store1', '--colour', 'red'], /Unknown option '--colour'/],
    ] as const) {
      const res = await admin('clients:update', ...args);
      expect({ args, stdout: res.stdout, lines: res.stderr.trim().split('\n').length }).toEqual({
        args,
        stdout: '',
        lines: 1,
      });
      expect([args, res.code]).not.toEqual([args, 0]);
      expect(res.stderr).toMatch(message);
    }
    expect(JSON.stringify(await t.db.query('SELECT * FROM api_clients ORDER BY id'))).toBe(before);
  });

  it('clients:update: a narrowing reaches the running server within 5 s, a widening the next incremental round', async () => {
    const client = await createClient('Till app', 'inventory.stock.read', '--stores', 'sto_a1');
    const key = JSON.parse((await admin('keys:issue', '--client', client.id, '--json')).stdout).key;
    const walk = async (path: string): Promise<{ ids: string[]; position: string }> => {
      const ids: string[] = [];
      let url: string | undefined = path;
      let position = '';
      while (url !== undefined) {
        const res: { body: { rows: { productId: string }[] }; headers: Record<string, string> } = await t
          .get(url, key)
          .expect(200);
        ids.push(...res.body.rows.map((r: { productId: string }) => r.productId));
        position = res.headers['sync-position'];
        url = /<([^>]+)>; rel="next"/.exec(res.headers.link ?? '')?.[1];
      }
      return { ids, position };
    };
    const STOCK = '/v1/inventory/stock?activeOnly=false&pageSize=100';
    const first = await walk(STOCK);
    expect(first.ids.every((id) => id.startsWith('prd_a1_'))).toBe(true);
    // Widened: the rows of sto_a2 did not change, and still reach the next round.
    expect((await admin('clients:update', client.id, '--add-stores', 'sto_a2')).code).toBe(0);
    const round = await walk(`${STOCK}&changedSince=${first.position}`);
    const [{ n }] = await t.db.query(`SELECT count(*)::int AS n FROM products WHERE store_id = 'sto_a2'`);
    expect(round.ids.filter((id) => id.startsWith('prd_a2_'))).toHaveLength(n);
    // Narrowed: the running server (keys cached for 2 s) stops showing sto_a2 within 5 s.
    expect((await admin('clients:update', client.id, '--remove-stores', 'sto_a2')).code).toBe(0);
    const started = Date.now();
    for (;;) {
      const res = await t.get('/v1/inventory/stock?pageSize=100&storeId=sto_a2', key);
      if (res.status === 404) break;
      if (Date.now() - started > 5000) throw new Error(`still ${res.status} after 5 s`);
      await new Promise((r) => setTimeout(r, 100));
    }
  });

  it('--expires with a date keeps the key valid through the end of that day (UTC)', async () => {
    const issued = await admin('keys:issue', '--client', 'cli_b_all', '--expires', '2099-12-31', '--json');
    expect(issued.stderr).toBe('');
    expect(JSON.parse(issued.stdout).expiresAt).toBe('2099-12-31T23:59:59.999Z');
    const exact = await admin('keys:issue', '--client', 'cli_b_all', '--expires', '2099-12-31T09:00:00Z', '--json');
    expect(JSON.parse(exact.stdout).expiresAt).toBe('2099-12-31T09:00:00.000Z');
    expect((await admin('keys:issue', '--help')).stdout).toContain('end of that day');
  });

  it('counts no usable keys for a disabled or revoked client, whatever its keys say', async () => {
    const clients: { id: string; status: string; activeKeys: number }[] = JSON.parse(
      (await admin('clients:list', '--tenant', 'ten_a', '--json')).stdout,
    );
    const keys = async (id: string) =>
      JSON.parse((await admin('keys:list', '--client', id, '--json')).stdout).filter(
        (k: { status: string }) => k.status === 'active',
      ).length;
    for (const id of ['cli_a_disabled', 'cli_a_revoked']) {
      expect(await keys(id)).toBeGreaterThan(0); // keys that would work, were the client active
      expect(clients.find((c) => c.id === id)).toMatchObject({ activeKeys: 0 });
    }
    expect(clients.find((c) => c.id === 'cli_a_all')!.activeKeys).toBeGreaterThan(0);
  });

  it('issues ck_live_ keys on a production configuration', async () => {
    const { stdout } = await run(
      process.execPath,
      ['dist/tools/cli/admin.js', 'keys:issue', '--client', 'cli_b_all', '--json'],
      { env: { ...process.env, DATABASE_URL: t.databaseUrl, APP_ENV: 'production' } },
    );
    expect(JSON.parse(stdout).key).toMatch(/^ck_live_[A-Za-z0-9]{40}$/);
  });

  it('a re-import of the data set never brings back a key or a client the admin tool revoked, --replace included', async () => {
    const importDemo = async (...flags: string[]): Promise<string> => {
      const { stdout } = await run(process.execPath, ['dist/tools/cli/db-import.js', 'fixtures/demo.json', ...flags], {
        env: { ...process.env, DATABASE_URL: t.databaseUrl },
      });
      return stdout;
    };
    const erpKey = 'ck_test_DemoErpSyncKey0000000000000000000001'; // key_cs_erp_1 of cli_cs_erp
    const fjordKey = 'ck_test_DemoFjordErpKey000000000000000000001'; // the only key of cli_fj_erp
    await importDemo();
    await t.get('/v1/catalog/products?pageSize=1', erpKey).expect(200);
    await t.get('/v1/catalog/products?pageSize=1', fjordKey).expect(200);
    expect((await admin('keys:revoke', 'key_cs_erp_1')).code).toBe(0);
    expect((await admin('clients:revoke', 'cli_fj_erp')).code).toBe(0);
    await waitForStatus(erpKey, 401, 5000);
    await waitForStatus(fjordKey, 401, 5000);

    for (const flags of [[], ['--replace']]) {
      const said = await importDemo(...flags);
      // The file lists both as active: the import says that they stay revoked.
      expect([flags, said]).toEqual([flags, expect.stringMatching(/stay revoked.*key_cs_erp_1.*cli_fj_erp/s)]);
      await new Promise((r) => setTimeout(r, t.config.authCacheTtlMs + 100));
      expect([flags, (await t.get('/v1/catalog/products?pageSize=1', erpKey)).status]).toEqual([flags, 401]);
      expect([flags, (await t.get('/v1/catalog/products?pageSize=1', fjordKey)).status]).toEqual([flags, 401]);
    }
    const keys = JSON.parse((await admin('keys:list', '--client', 'cli_cs_erp', '--json')).stdout);
    expect(keys.find((k: { id: string }) => k.id === 'key_cs_erp_1').status).toBe('revoked');
    expect((await admin('clients:enable', 'cli_fj_erp')).stderr).toMatch(/is revoked/);
    // Not even by SQL behind the tools' back: the database keeps revocations.
    await t.db.query(`UPDATE api_keys SET revoked_at = NULL WHERE id = 'key_cs_erp_1'`);
    await t.db.query(`UPDATE api_clients SET status = 'ACTIVE' WHERE id = 'cli_fj_erp'`);
    const [key] = await t.db.query(`SELECT revoked_at FROM api_keys WHERE id = 'key_cs_erp_1'`);
    const [client] = await t.db.query(`SELECT status FROM api_clients WHERE id = 'cli_fj_erp'`);
    expect([key.revoked_at, client.status]).toEqual([expect.any(Date), 'REVOKED']);
  });
});
