import { SCOPES } from '../auth/scopes.js';
import { KEY_PATTERN } from '../values/api-key-format.js';
import { CLIENT_STATUSES } from '../schema/tables/api-client.entity.js';
import { getMetadataArgsStorage } from 'typeorm';
import type { ColumnMetadataArgs } from 'typeorm/metadata-args/ColumnMetadataArgs.js';
import { Product, TAX_CATEGORIES, UNIT_TYPES } from '../schema/tables/product.entity.js';
import { PROMOTION_STATUSES } from '../schema/tables/promotion.entity.js';
import { STOCK_MOVEMENT_KINDS } from '../schema/tables/stock-history.entities.js';
import {
  hasControlCharacters,
  hasSecondFractionWithin,
  isDecimalString,
  isOpaqueId,
  loneSurrogate,
  MAX_TIMESTAMP_MS,
  MIN_TIMESTAMP_MS,
  parseRfc3339DateTime,
  toPostgresTimestamp,
} from '../values/formats.js';
import { COLLECTIONS, type Dataset } from './dataset.types.js';

/** One problem of a data set, with the JSON path it concerns. */
export interface DatasetProblem {
  path: string;
  message: string;
}

export const formatProblem = (p: DatasetProblem): string => `${p.path}: ${p.message}`;

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const show = (v: unknown): string => (typeof v === 'string' ? JSON.stringify(v) : (JSON.stringify(v) ?? String(v)));

// Digits allowed before and after the decimal point, matching the numeric columns of the schema, so
// that a value is stored exactly as written or refused (never rounded).
interface Scale {
  integer: number;
  fraction: number;
}
const MONEY: Scale = { integer: 12, fraction: 2 };
const QUANTITY: Scale = { integer: 11, fraction: 3 };
const PERCENT: Scale = { integer: 5, fraction: 2 };
const COST: Scale = { integer: 10, fraction: 4 };
const DISCOUNT_PERCENT: Scale = { integer: 3, fraction: 2 };
const MAX_TEXT = 1000;

const surrogateMessage = (surrogate: string): string =>
  `must be valid Unicode text: it holds a lone surrogate (${surrogate}), which cannot be stored`;

/** Every string of a free-form JSON value (keys included) that holds a lone surrogate, with its path. */
function jsonTextProblems(value: unknown, path: string, problems: DatasetProblem[]): void {
  if (typeof value === 'string') {
    const surrogate = loneSurrogate(value);
    if (surrogate !== null) problems.push({ path, message: surrogateMessage(surrogate) });
  } else if (Array.isArray(value)) {
    value.forEach((item, i) => jsonTextProblems(item, `${path}[${i}]`, problems));
  } else if (isObject(value)) {
    for (const [key, item] of Object.entries(value)) {
      jsonTextProblems(key, `${path}.${key}`, problems);
      jsonTextProblems(item, `${path}.${key}`, problems);
    }
  }
}

/** Reads one JSON object field by field, recording a problem for every bad or unknown field. */
class Fields {
  private readonly seen = new Set<string>();
  constructor(
    private readonly obj: Json,
    private readonly path: string,
    private readonly problems: DatasetProblem[],
  ) {}

  private at(key: string): string {
    return `${this.path}.${key}`;
  }

  private fail(key: string, message: string): void {
    this.problems.push({ path: this.at(key), message });
  }

  private value(key: string): unknown {
    this.seen.add(key);
    return this.obj[key];
  }

  private missing(key: string, optional: boolean, fallback: unknown): { done: boolean; value: unknown } {
    const v = this.value(key);
    if (v === undefined) {
      if (!optional) this.fail(key, 'is required');
      return { done: true, value: fallback };
    }
    return { done: false, value: v };
  }

  id(key: string): string {
    const { done, value } = this.missing(key, false, '');
    if (done) return '';
    if (!isOpaqueId(value))
      this.fail(key, `must be an id of 1 to 128 characters from A-Z a-z 0-9 _ . : -, got ${show(value)}`);
    return String(value);
  }

  optionalId(key: string): string | null {
    const { done, value } = this.missing(key, true, null);
    if (done || value === null) return null;
    if (!isOpaqueId(value))
      this.fail(key, `must be null or an id of 1 to 128 characters from A-Z a-z 0-9 _ . : -, got ${show(value)}`);
    return String(value);
  }

  text(key: string, options: { nullable?: boolean; pattern?: RegExp; patternText?: string } = {}): string {
    const { done, value } = this.missing(key, options.nullable ?? false, null);
    if (done) return value as string;
    if (value === null && options.nullable) return null as unknown as string;
    if (typeof value !== 'string' || value.length === 0) {
      this.fail(key, `must be a non-empty string${options.nullable ? ' or null' : ''}, got ${show(value)}`);
      return '';
    }
    const surrogate = loneSurrogate(value);
    if (value.length > MAX_TEXT) this.fail(key, `must be at most ${MAX_TEXT} characters`);
    else if (hasControlCharacters(value)) this.fail(key, 'must not contain control characters');
    else if (surrogate !== null) this.fail(key, surrogateMessage(surrogate));
    else if (options.pattern && !options.pattern.test(value))
      this.fail(key, `must be ${options.patternText}, got ${show(value)}`);
    return value;
  }

  nullableText(key: string): string | null {
    return this.text(key, { nullable: true }) as string | null;
  }

  oneOf<T extends string>(key: string, allowed: readonly T[]): T {
    const { done, value } = this.missing(key, false, '');
    if (done) return value as T;
    if (!allowed.includes(value as T)) this.fail(key, `must be one of ${allowed.join(', ')}, got ${show(value)}`);
    return value as T;
  }

  bool(key: string, fallback?: boolean): boolean {
    const { done, value } = this.missing(key, fallback !== undefined, fallback ?? false);
    if (done) return value as boolean;
    if (typeof value !== 'boolean') this.fail(key, `must be true or false, got ${show(value)}`);
    return value === true;
  }

  integer(key: string, options: { min: number; max: number; nullable?: boolean; fallback?: number }): number | null {
    const optional = options.nullable === true || options.fallback !== undefined;
    const { done, value } = this.missing(key, optional, options.fallback ?? null);
    if (done) return value as number | null;
    if (value === null && options.nullable) return null;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < options.min || value > options.max) {
      this.fail(
        key,
        `must be a whole number from ${options.min} to ${options.max}${options.nullable ? ' or null' : ''}, got ${show(value)}`,
      );
      return options.min;
    }
    return value;
  }

  decimal(key: string, scale: Scale, options: { nullable?: boolean; nonNegative?: boolean } = {}): string {
    const { done, value } = this.missing(key, options.nullable ?? false, null);
    if (done) return value as string;
    if (value === null && options.nullable) return null as unknown as string;
    if (!isDecimalString(value, scale.integer, scale.fraction)) {
      this.fail(
        key,
        `must be a decimal number written as a string (for example "12.50") with ` +
          `at most ${scale.integer} digits before the point and ${scale.fraction} after ` +
          `it, got ${show(value)}`,
      );
      return '0';
    }
    if (options.nonNegative && value.startsWith('-')) this.fail(key, `must not be negative, got ${show(value)}`);
    return value;
  }

  nullableDecimal(key: string, scale: Scale): string | null {
    return this.decimal(key, scale, { nullable: true, nonNegative: true }) as string | null;
  }

  /** A valid value comes back as PostgreSQL input in UTC (`2026-10-01 08:00:00.000+00`; such strings sort in time order). */
  dateTime(key: string, options: { nullable?: boolean } = {}): string {
    const { done, value } = this.missing(key, options.nullable ?? false, null);
    if (done) return value as string;
    if (value === null && options.nullable) return null as unknown as string;
    const instant = parseRfc3339DateTime(value);
    if (instant === null) {
      this.fail(
        key,
        `must be an RFC 3339 date-time with an offset (for example "2026-10-01T08:00:00.000Z")${options.nullable ? ' or null' : ''}, ` +
          `got ${show(value)}`,
      );
      return '';
    }
    if (!hasSecondFractionWithin(value as string, 3)) {
      this.fail(
        key,
        `must not be more precise than milliseconds (they are stored to the millisecond), got ${show(value)}`,
      );
    } else if (instant.floorMs !== instant.ceilMs) {
      this.fail(key, `must not be a leap second (:60), which cannot be stored, got ${show(value)}`);
    }
    if (instant.floorMs < MIN_TIMESTAMP_MS || instant.floorMs > MAX_TIMESTAMP_MS) {
      this.fail(key, `must be in the years 0001 to 9999 once converted to UTC, got ${show(value)}`);
    }
    return toPostgresTimestamp(instant.floorMs);
  }

  nullableDateTime(key: string): string | null {
    return this.dateTime(key, { nullable: true }) as string | null;
  }

  array(key: string, options: { nullable?: boolean; optional?: boolean } = {}): unknown[] | null {
    const { done, value } = this.missing(
      key,
      options.nullable === true || options.optional === true,
      options.optional ? [] : null,
    );
    if (done) return value as unknown[] | null;
    if (value === null && options.nullable) return null;
    if (!Array.isArray(value)) {
      this.fail(key, `must be an array${options.nullable ? ' or null' : ''}, got ${show(value)}`);
      return [];
    }
    return value;
  }

  raw(key: string): unknown {
    return this.value(key);
  }

  /** Reports every field that the format does not define: a typo must never be silently dropped. */
  done(): void {
    for (const key of Object.keys(this.obj)) {
      if (!this.seen.has(key)) this.problems.push({ path: this.at(key), message: 'is not a field of this record' });
    }
  }
}

function each(root: Json, name: string, problems: DatasetProblem[], read: (f: Fields, path: string) => void): void {
  const list = root[name];
  if (list === undefined) return;
  if (!Array.isArray(list)) {
    problems.push({ path: name, message: 'must be an array' });
    return;
  }
  list.forEach((item, i) => {
    const path = `${name}[${i}]`;
    if (!isObject(item)) {
      problems.push({ path, message: 'must be an object' });
      return;
    }
    const fields = new Fields(item, path, problems);
    read(fields, path);
    fields.done();
  });
}

function conditionProblems(c: unknown, path: string, problems: DatasetProblem[]): void {
  if (!isObject(c)) {
    problems.push({ path, message: 'must be an object' });
    return;
  }
  const f = new Fields(c, path, problems);
  const kind = f.oneOf('kind', [
    'product_quantity',
    'category_quantity',
    'basket_spend',
    'customer_group',
    'time_of_day',
  ] as const);
  const idList = (key: string): void => {
    const ids = f.array(key);
    if (ids && ids.length === 0) problems.push({ path: `${path}.${key}`, message: 'must name at least one id' });
    ids?.forEach((id, j) => {
      if (!isOpaqueId(id)) problems.push({ path: `${path}.${key}[${j}]`, message: `must be an id, got ${show(id)}` });
    });
  };
  switch (kind) {
    case 'product_quantity':
      f.integer('minQuantity', { min: 1, max: 1_000_000 });
      idList('productIds');
      break;
    case 'category_quantity':
      f.integer('minQuantity', { min: 1, max: 1_000_000 });
      idList('categoryIds');
      break;
    case 'basket_spend':
      f.decimal('minSpend', MONEY, { nonNegative: true });
      break;
    case 'customer_group':
      f.text('group', { pattern: /^[A-Z0-9_]{1,100}$/, patternText: 'a group name of A-Z, 0-9 and _' });
      break;
    case 'time_of_day':
      f.text('from', { pattern: /^([01]\d|2[0-3]):[0-5]\d$/, patternText: 'a time HH:MM' });
      f.text('to', { pattern: /^([01]\d|2[0-3]):[0-5]\d$/, patternText: 'a time HH:MM' });
      break;
    default:
      return;
  }
  f.done();
}

function actionProblems(a: unknown, path: string, problems: DatasetProblem[]): void {
  if (!isObject(a)) {
    problems.push({ path, message: 'must be an object' });
    return;
  }
  const f = new Fields(a, path, problems);
  const kind = f.oneOf('kind', ['percent_off', 'amount_off', 'fixed_price', 'free_items'] as const);
  switch (kind) {
    case 'percent_off':
      f.decimal('percent', DISCOUNT_PERCENT, { nonNegative: true });
      f.oneOf('target', ['qualifying_items', 'basket'] as const);
      break;
    case 'amount_off':
      f.decimal('amount', MONEY, { nonNegative: true });
      f.oneOf('target', ['qualifying_items', 'basket'] as const);
      break;
    case 'fixed_price':
      f.decimal('price', MONEY, { nonNegative: true });
      break;
    case 'free_items':
      f.integer('quantity', { min: 1, max: 1000 });
      f.oneOf('which', ['cheapest', 'most_expensive'] as const);
      break;
    default:
      return;
  }
  f.done();
}

/**
 * The fields of a product in a data set (docs/dataset-format.md#products): the columns of the
 * products table (the `Product` entity), by property name, in its order, each read by its column's
 * type (an id, text, a boolean, a decimal of the column's precision, a date-time; a nullable one may
 * be null or left out). The rules below are the format's decisions beyond a column's type. So a new
 * column of the entity is a field of the data set with no edit here; one whose type has no reading
 * (or a CHECK of its own) needs a rule, and a column the tools cannot read stops them at load.
 */
const PRODUCT_FIELD_RULES: { [K in ProductField]?: (f: Fields) => DatasetProduct[K] } = {
  sku: (f) => f.text('sku', { pattern: /^.{1,200}$/s, patternText: 'at most 200 characters' }),
  unitType: (f) => f.oneOf('unitType', UNIT_TYPES),
  sellingPriceGross: (f) => f.decimal('sellingPriceGross', MONEY, { nonNegative: true }),
  sellingPriceNet: (f) => f.decimal('sellingPriceNet', MONEY, { nonNegative: true }),
  taxCategory: (f) => f.oneOf('taxCategory', TAX_CATEGORIES),
  variablePrice: (f) => f.bool('variablePrice', false),
  ageRestricted: (f) => f.bool('ageRestricted', false),
  alcoholRestricted: (f) => f.bool('alcoholRestricted', false),
  tobaccoRestricted: (f) => f.bool('tobaccoRestricted', false),
  vapeRestricted: (f) => f.bool('vapeRestricted', false),
  costPrice: (f) => f.nullableDecimal('costPrice', COST),
  packCost: (f) => f.nullableDecimal('packCost', COST),
  unitCost: (f) => f.nullableDecimal('unitCost', COST),
};

/** Columns of the entity that are not fields: the tenant (a product has it through its store) and what the database writes. */
const NOT_PRODUCT_FIELDS = ['tenantId', 'changeXact', 'searchText', 'productRow1', 'productRow3', 'stockRow1'] as const;
type ProductField = Exclude<keyof Product & string, (typeof NOT_PRODUCT_FIELDS)[number]>;

/** A column's value as a data set writes it: a timestamp is an RFC 3339 string. */
type DatasetValue<T> = T extends Date ? string : T;

/** A product of a data set: the entity's fields, as the data set writes them. */
export type DatasetProduct = { [K in ProductField]: DatasetValue<Product[K]> };

/** How a column of its type is read when no rule is written for it. */
export function readByType(column: ColumnMetadataArgs): (f: Fields) => unknown {
  const key = column.propertyName;
  const nullable = column.options.nullable === true;
  const { type, precision, scale } = column.options;
  if (type === 'varchar' && column.options.length === 128) return (f) => (nullable ? f.optionalId(key) : f.id(key));
  if (type === 'text') return (f) => (nullable ? f.nullableText(key) : f.text(key));
  if (type === 'boolean' && !nullable) return (f) => f.bool(key);
  if (type === 'numeric' && precision !== undefined && precision !== null && scale !== undefined) {
    const digits: Scale = { integer: precision - scale, fraction: scale };
    return (f) => f.decimal(key, digits, { nullable });
  }
  if (type === 'timestamptz') return (f) => (nullable ? f.nullableDateTime(key) : f.dateTime(key));
  throw new Error(
    `products.${column.options.name ?? key} (${String(type)}${nullable ? ', nullable' : ''}) has no data-set reading: ` +
      `give ${key} a rule in PRODUCT_FIELD_RULES (src/dataset/validate-dataset.ts)`,
  );
}

/** Each field with its column and how it is read, in the entity's order (the importer's and the generator's columns). */
const PRODUCT_FIELDS: readonly {
  field: ProductField;
  column: string;
  nullable: boolean;
  read: (f: Fields) => unknown;
}[] = getMetadataArgsStorage()
  .filterColumns(Product)
  .filter((column) => !(NOT_PRODUCT_FIELDS as readonly string[]).includes(column.propertyName))
  .map((column) => {
    const field = column.propertyName as ProductField;
    if (column.options.insert === false)
      throw new Error(`products.${field} is written by the database: add it to NOT_PRODUCT_FIELDS`);
    return {
      field,
      column: column.options.name ?? field,
      nullable: column.options.nullable === true,
      read: PRODUCT_FIELD_RULES[field] ?? readByType(column),
    };
  });

/** Whether a product field may be null (and so left out of a data set). */
export const productFieldIsNullable = (field: string): boolean =>
  PRODUCT_FIELDS.some((f) => f.field === field && f.nullable);

/** The names of a data set's product fields, in the entity's order. */
export const DATASET_PRODUCT_FIELDS: readonly string[] = PRODUCT_FIELDS.map(({ field }) => field);

/** The fields of DatasetProduct that may be null. */
type NullableField = { [K in keyof DatasetProduct]: null extends DatasetProduct[K] ? K : never }[keyof DatasetProduct];

/**
 * A product as code writes one (the generator): a field that may be null may be left out, as a data
 * set may leave it out, so that a new nullable column needs no edit there.
 */
export type ProductInput = Omit<DatasetProduct, NullableField> & Partial<Pick<DatasetProduct, NullableField>>;

/** The columns of a product row (its tenant's first: a product has it through its store), and a row. */
export const PRODUCT_COLUMNS = ['tenant_id', ...PRODUCT_FIELDS.map(({ column }) => column)];
export const productRow = (product: ProductInput, tenantId: string): unknown[] => [
  tenantId,
  ...PRODUCT_FIELDS.map(({ field }) => (product as Partial<DatasetProduct>)[field] ?? null),
];

/**
 * Checks the shape of a data set: every field's type, enum, decimal and date-time. References and
 * uniqueness are checked by `checkReferences`, which also sees what the database already holds.
 */
export function validateDatasetShape(input: unknown): { dataset: Dataset; problems: DatasetProblem[] } {
  const problems: DatasetProblem[] = [];
  const dataset: Dataset = {
    tenants: [],
    stores: [],
    vatRates: [],
    suppliers: [],
    staff: [],
    categories: [],
    products: [],
    stockLevels: [],
    stockMovements: [],
    promotions: [],
    apiClients: [],
  };
  if (!isObject(input)) {
    return { dataset, problems: [{ path: '$', message: 'the data set must be a JSON object' }] };
  }
  for (const key of Object.keys(input)) {
    if (!(COLLECTIONS as readonly string[]).includes(key)) {
      problems.push({
        path: key,
        message: `is not a collection of the format (expected one of ${COLLECTIONS.join(', ')})`,
      });
    }
  }

  each(input, 'tenants', problems, (f) => {
    dataset.tenants.push({
      id: f.id('id'),
      name: f.text('name'),
      currency: f.text('currency', { pattern: /^[A-Z]{3}$/, patternText: 'an ISO 4217 code such as "GBP"' }),
    });
  });
  each(input, 'stores', problems, (f) => {
    dataset.stores.push({ id: f.id('id'), tenantId: f.id('tenantId'), name: f.text('name') });
  });
  each(input, 'vatRates', problems, (f) => {
    dataset.vatRates.push({
      id: f.id('id'),
      tenantId: f.id('tenantId'),
      code: f.text('code'),
      name: f.text('name'),
      percentage: f.decimal('percentage', PERCENT, { nonNegative: true }),
    });
  });
  each(input, 'suppliers', problems, (f) => {
    dataset.suppliers.push({
      id: f.id('id'),
      tenantId: f.id('tenantId'),
      name: f.text('name'),
      contactEmail: f.nullableText('contactEmail'),
    });
  });
  each(input, 'staff', problems, (f) => {
    dataset.staff.push({ id: f.id('id'), tenantId: f.id('tenantId'), name: f.text('name') });
  });
  each(input, 'categories', problems, (f) => {
    dataset.categories.push({
      id: f.id('id'),
      storeId: f.id('storeId'),
      parentCategoryId: f.optionalId('parentCategoryId'),
      name: f.text('name'),
      code: f.nullableText('code'),
      description: f.nullableText('description'),
      sortOrder: f.integer('sortOrder', { min: -2_147_483_648, max: 2_147_483_647 }) ?? 0,
      isActive: f.bool('isActive'),
      isArchived: f.bool('isArchived', false),
      updatedAt: f.dateTime('updatedAt'),
    });
  });
  each(input, 'products', problems, (f) => {
    const product: Record<string, unknown> = {};
    for (const { field, read } of PRODUCT_FIELDS) product[field] = read(f);
    dataset.products.push(product as DatasetProduct);
  });
  each(input, 'stockLevels', problems, (f, path) => {
    const layers = f.array('costLayers', { optional: true }) ?? [];
    const costLayers = layers.flatMap((layer, j) => {
      const layerPath = `${path}.costLayers[${j}]`;
      if (!isObject(layer)) {
        problems.push({ path: layerPath, message: 'must be an object' });
        return [];
      }
      const lf = new Fields(layer, layerPath, problems);
      const out = {
        quantity: lf.decimal('quantity', QUANTITY),
        unitCost: lf.decimal('unitCost', COST, { nonNegative: true }),
        receivedAt: lf.dateTime('receivedAt'),
      };
      lf.done();
      return [out];
    });
    dataset.stockLevels.push({
      productId: f.id('productId'),
      trackStock: f.bool('trackStock'),
      quantity: f.decimal('quantity', QUANTITY),
      reorderLevel: f.decimal('reorderLevel', QUANTITY),
      updatedAt: f.dateTime('updatedAt'),
      costLayers,
    });
  });
  each(input, 'stockMovements', problems, (f) => {
    dataset.stockMovements.push({
      id: f.id('id'),
      productId: f.id('productId'),
      kind: f.oneOf('kind', STOCK_MOVEMENT_KINDS),
      quantityDelta: f.decimal('quantityDelta', QUANTITY),
      reason: f.nullableText('reason'),
      staffId: f.optionalId('staffId'),
      occurredAt: f.dateTime('occurredAt'),
    });
  });
  each(input, 'promotions', problems, (f, path) => {
    const conditions = f.array('conditions', { optional: true }) ?? [];
    conditions.forEach((c, j) => conditionProblems(c, `${path}.conditions[${j}]`, problems));
    const actions = f.array('actions', { optional: true }) ?? [];
    actions.forEach((a, j) => actionProblems(a, `${path}.actions[${j}]`, problems));
    const promotion = {
      id: f.id('id'),
      storeId: f.id('storeId'),
      name: f.text('name'),
      type: f.text('type', { pattern: /^[A-Z_]{1,100}$/, patternText: 'a type of A-Z and _' }),
      status: f.oneOf('status', PROMOTION_STATUSES),
      startsAt: f.nullableDateTime('startsAt'),
      endsAt: f.nullableDateTime('endsAt'),
      isSystemPreset: f.bool('isSystemPreset', false),
      conditions,
      actions,
      builderConfig: f.raw('builderConfig') ?? null,
      createdByStaffId: f.optionalId('createdByStaffId'),
      updatedAt: f.dateTime('updatedAt'),
    };
    jsonTextProblems(promotion.builderConfig, `${path}.builderConfig`, problems);
    if (promotion.startsAt && promotion.endsAt && promotion.endsAt < promotion.startsAt) {
      problems.push({ path: `${path}.endsAt`, message: 'must not be before startsAt' });
    }
    dataset.promotions.push(promotion);
  });
  each(input, 'apiClients', problems, (f, path) => {
    const scopes = f.array('scopes') ?? [];
    scopes.forEach((s, j) => {
      if (!(SCOPES as readonly unknown[]).includes(s)) {
        problems.push({ path: `${path}.scopes[${j}]`, message: `must be one of ${SCOPES.join(', ')}, got ${show(s)}` });
      }
    });
    const stores = f.array('allowedStoreIds', { nullable: true });
    stores?.forEach((s, j) => {
      if (!isOpaqueId(s))
        problems.push({ path: `${path}.allowedStoreIds[${j}]`, message: `must be a store id, got ${show(s)}` });
    });
    const keys = (f.array('keys', { optional: true }) ?? []).flatMap((k, j) => {
      const keyPath = `${path}.keys[${j}]`;
      if (!isObject(k)) {
        problems.push({ path: keyPath, message: 'must be an object' });
        return [];
      }
      const kf = new Fields(k, keyPath, problems);
      const out = {
        id: kf.id('id'),
        key: kf.text('key', {
          pattern: KEY_PATTERN,
          patternText: 'ck_live_ or ck_test_ followed by 32 to 64 letters and digits',
        }),
        expiresAt: kf.nullableDateTime('expiresAt'),
        revokedAt: kf.nullableDateTime('revokedAt'),
      };
      kf.done();
      return [out];
    });
    dataset.apiClients.push({
      id: f.id('id'),
      tenantId: f.id('tenantId'),
      name: f.text('name'),
      status: f.oneOf('status', CLIENT_STATUSES),
      scopes: [...new Set(scopes as string[])],
      allowedStoreIds: stores === null ? null : [...new Set(stores as string[])],
      rateLimitPerMinute: f.integer('rateLimitPerMinute', { min: 1, max: 1_000_000, nullable: true }),
      keys,
    });
  });
  return { dataset, problems };
}
