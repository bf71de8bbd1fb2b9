import { Listing, toPage } from './pagination.js';
import { SyncRound } from './sync.js';
import { Transport, type TransportOptions } from './transport.js';
import type {
  CallOptions,
  Query,
  Category,
  CategoryQuery,
  Page,
  Product,
  ProductPage,
  ProductQuery,
  ProductRemovalPage,
  Promotion,
  PromotionQuery,
  StockPage,
  StockQuery,
  StorePage,
  StoreQuery,
  StockRemovalPage,
  WalkOptions,
} from './types.js';

export type ClientOptions = TransportOptions;

/** Parameters of a walk: those of the list but `cursor`, which the walk takes from the Link header. */
export type ProductListQuery = Omit<ProductQuery, 'cursor'>;
export type StockListQuery = Omit<StockQuery, 'cursor'>;
export type StoreListQuery = Omit<StoreQuery, 'cursor'>;
/** Parameters of a removals walk: `changedSince` (required), `storeId`, `pageSize`. */
export type RemovalsQuery = Omit<Query<'listProductRemovals'>, 'cursor'>;

/** A sync round's options: the only parameters a sync walk combines with. */
export interface SyncOptions extends WalkOptions {
  /** Only this store (the stored position must come from rounds with the same storeId). */
  readonly storeId?: string;
  /** Rows per page, 1 to 100. Default 100. */
  readonly pageSize?: number;
}

export interface Client {
  readonly products: {
    /** GET /v1/catalog/products/{id}: one product, active or not. */
    get(id: string, options?: CallOptions): Promise<Product>;
    /** GET /v1/catalog/products: one page (by `page` number, or by a `cursor` of an earlier page). */
    listPage(query?: ProductQuery, options?: CallOptions): Promise<Page<ProductPage>>;
    /** GET /v1/catalog/products following `Link` next: iterate it for products, or `.pages()`. */
    list(query?: ProductListQuery, options?: WalkOptions): Listing<ProductPage>;
    /**
     * GET /v1/catalog/product-removals following `Link` next: the products that left the key's view since
     * `changedSince`. A sync round walks it for you after its changes (`client.sync.products`).
     */
    removals(query: RemovalsQuery, options?: WalkOptions): Listing<ProductRemovalPage>;
  };
  readonly stock: {
    /** GET /v1/inventory/stock: one page (by `page` number, or by a `cursor` of an earlier page). */
    listPage(query?: StockQuery, options?: CallOptions): Promise<Page<StockPage>>;
    /** GET /v1/inventory/stock following `Link` next: iterate it for stock rows, or `.pages()`. */
    list(query?: StockListQuery, options?: WalkOptions): Listing<StockPage>;
    /**
     * GET /v1/inventory/stock-removals following `Link` next: the stock rows that left the key's view since
     * `changedSince`. A sync round walks it for you after its changes (`client.sync.stock`).
     */
    removals(query: RemovalsQuery, options?: WalkOptions): Listing<StockRemovalPage>;
  };
  readonly stores: {
    /** GET /v1/catalog/stores: one page of the stores the key may read. */
    listPage(query?: StoreQuery, options?: CallOptions): Promise<Page<StorePage>>;
    /** GET /v1/catalog/stores following `Link` next: iterate it for the stores the key may read. */
    list(query?: StoreListQuery, options?: WalkOptions): Listing<StorePage>;
  };
  readonly categories: {
    /** GET /v1/catalog/categories (not paginated). */
    list(query?: CategoryQuery, options?: CallOptions): Promise<Category[]>;
  };
  readonly promotions: {
    /** GET /v1/catalog/promotions (not paginated). */
    list(query?: PromotionQuery, options?: CallOptions): Promise<Promotion[]>;
  };
  /** One round of the lossless sync recipe per call (changes, then removals); see SyncRound. */
  readonly sync: {
    /** Products changed since `position` (every product without it), inactive ones included; then those that left the view. */
    products(position?: string, options?: SyncOptions): SyncRound<ProductPage, ProductRemovalPage>;
    /** Stock rows changed since `position` (every row without it), of inactive products too; then those that left the view. */
    stock(position?: string, options?: SyncOptions): SyncRound<StockPage, StockRemovalPage>;
  };
}

type QueryValue = string | number | boolean | undefined;

/** `path?name=value&…` with the query's defined values, in the order given. */
function withQuery(path: string, query: Readonly<Record<string, QueryValue>> = {}): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined) params.append(name, String(value));
  const text = params.toString();
  return text === '' ? path : `${path}?${text}`;
}

const PRODUCTS = '/v1/catalog/products';
const STOCK = '/v1/inventory/stock';
const STORES = '/v1/catalog/stores';
const PRODUCT_REMOVALS = '/v1/catalog/product-removals';
const STOCK_REMOVALS = '/v1/inventory/stock-removals';
const SYNC_PAGE_SIZE = 100;

/**
 * A client of the Catalog and Inventory Read API for one key: `baseUrl` is the server's root, without /v1
 * (e.g. `https://catalog.example.com`), `apiKey` a `ck_live_…` or `ck_test_…` key.
 */
export function createClient(options: ClientOptions): Client {
  const transport = new Transport(options);
  const get = async <T>(path: string, callOptions?: CallOptions): Promise<T> =>
    (await transport.get<T>(path, callOptions)).body;
  const listPage = async <Body extends ProductPage | StockPage | StorePage>(path: string, callOptions?: CallOptions) =>
    toPage(await transport.get<Body>(path, callOptions));
  const syncRound = <Body extends ProductPage | StockPage, Removals extends ProductRemovalPage | StockRemovalPage>(
    route: string,
    removalsRoute: string,
    position: string | undefined,
    { storeId, pageSize = SYNC_PAGE_SIZE, signal }: SyncOptions = {},
  ) => {
    // activeOnly=false: a product that is deactivated must reach the copy as a change, not vanish.
    const path = withQuery(route, { activeOnly: false, storeId, pageSize, changedSince: position });
    // The removals walk starts from the same position as the changes walk (a full copy has none).
    const removals =
      position === undefined
        ? null
        : new Listing<Removals>(transport, withQuery(removalsRoute, { storeId, pageSize, changedSince: position }), {
            signal,
          });
    return new SyncRound<Body, Removals>(new Listing<Body>(transport, path, { signal }), position, removals);
  };
  return {
    products: {
      get: (id, callOptions) => get<Product>(`${PRODUCTS}/${encodeURIComponent(id)}`, callOptions),
      listPage: (query, callOptions) => listPage<ProductPage>(withQuery(PRODUCTS, query), callOptions),
      list: (query, walkOptions) => new Listing<ProductPage>(transport, withQuery(PRODUCTS, query), walkOptions),
      removals: (query, walkOptions) =>
        new Listing<ProductRemovalPage>(transport, withQuery(PRODUCT_REMOVALS, query), walkOptions),
    },
    stock: {
      listPage: (query, callOptions) => listPage<StockPage>(withQuery(STOCK, query), callOptions),
      list: (query, walkOptions) => new Listing<StockPage>(transport, withQuery(STOCK, query), walkOptions),
      removals: (query, walkOptions) =>
        new Listing<StockRemovalPage>(transport, withQuery(STOCK_REMOVALS, query), walkOptions),
    },
    stores: {
      listPage: (query, callOptions) => listPage<StorePage>(withQuery(STORES, query), callOptions),
      list: (query, walkOptions) => new Listing<StorePage>(transport, withQuery(STORES, query), walkOptions),
    },
    categories: {
      list: (query, callOptions) => get<Category[]>(withQuery('/v1/catalog/categories', query), callOptions),
    },
    promotions: {
      list: (query, callOptions) => get<Promotion[]>(withQuery('/v1/catalog/promotions', query), callOptions),
    },
    sync: {
      products: (position, syncOptions) =>
        syncRound<ProductPage, ProductRemovalPage>(PRODUCTS, PRODUCT_REMOVALS, position, syncOptions),
      stock: (position, syncOptions) =>
        syncRound<StockPage, StockRemovalPage>(STOCK, STOCK_REMOVALS, position, syncOptions),
    },
  };
}
