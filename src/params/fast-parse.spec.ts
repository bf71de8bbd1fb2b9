import 'reflect-metadata';
import { ListCategoriesQuery } from '../catalog/categories/categories.list.js';
import { ListProductsQuery, NoQueryParams, ProductIdParams } from '../catalog/products/products.list.js';
import { ListPromotionsQuery } from '../catalog/promotions/list-promotions.query.js';
import { ListStockQuery } from '../inventory/stock/stock.list.js';
import type { ParameterError } from '../http/api-error.js';
import { parseFast } from './fast-parse.js';
import { parameterNames, validateFully } from './params-validation.pipe.js';

/**
 * The fast way and the full way of params-validation.pipe.ts agree: whatever the fast way accepts,
 * the full way accepts with the same values; and whatever the full way accepts, the fast way does
 * too (else the common case would silently pay for the full way). Values of every kind, valid and
 * not, alone, in pairs, and in the combinations that rules across parameters look at.
 */
const CURSOR = `${'A'.repeat(40)}.${'B'.repeat(22)}`;
const SAMPLES: Record<string, string[]> = {
  page: ['1', '7', '007', '9007199254740991', '9007199254740992', '0', '-1', '1.5', '1e2', 'abc', ' 1'],
  pageSize: ['1', '50', '100', '101', '0', '5x'],
  cursor: [CURSOR, 'not a cursor', `${CURSOR}=`, `${'A'.repeat(1001)}.${'B'.repeat(22)}`],
  storeId: ['sto_1', 'a'.repeat(128), 'a'.repeat(129), 'sto 1', 'sto/1', '%'],
  categoryId: ['cat_1', 'cat 1'],
  productId: ['prd_1', 'prd!'],
  parentCategoryId: ['cat_1', ''],
  q: [
    'cola',
    ' cola 330 ',
    'a\u00a0b',
    '100% _x\\',
    Array(10).fill('t').join(' '),
    Array(11).fill('t').join(' '),
    '   ',
    'x\u0001',
    'é'.repeat(200),
    'é'.repeat(201),
  ],
  sku: ['SD-100', 'x\u007f', 'a'.repeat(201)],
  barcode: ['5010000000000', '\t'],
  type: ['MULTI_BUY', 'COUPON', 'x\u0000'],
  updatedSince: [
    '2026-10-01T00:00:00Z',
    '2026-10-01T00:00:00.0000001+23:59',
    '2026-02-30T00:00:00Z',
    '2026-10-01',
    '2026-10-01T00:00:60Z',
  ],
  activeAt: ['2026-12-01T12:00:00Z', 'tomorrow'],
  activeOnly: ['true', 'false', 'TRUE', '1'],
  lowStockOnly: ['true', 'false', 'yes'],
  sortBy: ['name', 'sortOrder', 'price'],
  changedSince: ['sp_123', 'sp_', 'sp_12345678901234567890', '123'],
  id: ['prd_camden_001', 'prd camden', 'a'.repeat(129)],
  unknown: ['x'],
};

function cases(names: readonly string[]): Record<string, unknown>[] {
  const single = names.flatMap((name) => (SAMPLES[name] ?? ['x']).map((v) => ({ [name]: v })));
  const pairs = names.flatMap((a, i) =>
    names.slice(i + 1).flatMap((b) => [{ [a]: SAMPLES[a]?.[0] ?? 'x', [b]: SAMPLES[b]?.[0] ?? 'x' }]),
  );
  const across: Record<string, string | string[]>[] = [
    { cursor: CURSOR, page: '2' },
    { cursor: CURSOR, pageSize: '100', activeOnly: 'false' },
    { changedSince: 'sp_1', activeOnly: 'false' },
    { changedSince: 'sp_1', activeOnly: 'false', storeId: 'sto_1', pageSize: '100', cursor: CURSOR },
    { changedSince: 'sp_1', activeOnly: 'true' },
    { changedSince: 'sp_1' },
    { changedSince: 'sp_1', activeOnly: 'false', page: '1' },
    { changedSince: 'sp_1', activeOnly: 'false', sku: 'X' },
    { changedSince: 'sp_1', activeOnly: 'false', lowStockOnly: 'false' },
    { changedSince: 'sp_1', activeOnly: 'false', lowStockOnly: 'true' },
    { page: ['1', '2'] },
    { toString: 'x' },
  ];
  return [{}, ...single, ...pairs, ...across];
}

const DTOS = {
  ListProductsQuery,
  ListStockQuery,
  ListCategoriesQuery,
  ListPromotionsQuery,
  ProductIdParams,
  NoQueryParams,
};

describe.each(Object.entries(DTOS))('%s', (_name, dto) => {
  const names = parameterNames(dto);
  it.each(cases([...names, 'unknown']).map((c) => [JSON.stringify(c), c]))('agrees on %s', (_text, value) => {
    const errors: ParameterError[] = [];
    const full = validateFully(value, dto, 'query', errors);
    const fast = parseFast(value, dto, names);
    if (errors.length > 0) {
      expect(fast).toBeUndefined();
    } else {
      expect(fast).toBeInstanceOf(dto);
      expect({ ...fast }).toEqual({ ...full });
    }
  });
});

describe('the message of a parameter that breaks two rules', () => {
  // class-validator reports the first rule that fails, so the order of registration is part of the
  // response bytes: q's term rule has always been the one a 400 names.
  it.each([
    ['\t', 'must contain 1 to 10 search terms separated by white space'],
    [Array(11).fill('t'.repeat(19)).join(' '), 'must contain 1 to 10 search terms separated by white space'],
    ['cola\u0001', 'must be 1 to 200 characters without control characters'],
  ])('q=%j is refused with %j', (q, message) => {
    const out: ParameterError[] = [];
    validateFully({ q }, ListProductsQuery, 'query', out);
    expect(out).toEqual([{ in: 'query', name: 'q', message }]);
  });
});
