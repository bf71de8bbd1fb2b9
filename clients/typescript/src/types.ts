import type { operations } from './generated/openapi.js';

// Types are taken from openapi.json through the operations (their ids are part of the contract),
// not through component names, which may be reorganised without changing the API.

// HEAD operations (operationId …Head) answer no body: the client calls GET.
type Operation = Exclude<keyof operations, `${string}Head`>;
type Ok<O extends Operation> = operations[O]['responses'][200]['content']['application/json'];
/** The query parameters of an operation, as openapi.json declares them. */
export type Query<O extends Operation> = NonNullable<operations[O]['parameters']['query']>;

/** A product, as GET /v1/catalog/products/{id} and the product list answer it. */
export type Product = Ok<'getProduct'>;
/** One page of GET /v1/catalog/products. */
export type ProductPage = Ok<'listProducts'>;
/** One page of GET /v1/inventory/stock. */
export type StockPage = Ok<'listStock'>;
/** A stock row (one per product; its key is `productId`). */
export type StockRow = StockPage['rows'][number];
/** One page of GET /v1/catalog/stores. */
export type StorePage = Ok<'listStores'>;
/** A store the key may read: its id (the storeId of every other list) and name. */
export type Store = StorePage['rows'][number];
/** One page of GET /v1/catalog/product-removals. */
export type ProductRemovalPage = Ok<'listProductRemovals'>;
/** One page of GET /v1/inventory/stock-removals. */
export type StockRemovalPage = Ok<'listStockRemovals'>;
/** A product that left the key's view: delete it from the copy (its key is `id`, as a product's). */
export type ProductRemoval = ProductRemovalPage['rows'][number];
/** A stock row that left the key's view: delete it from the copy (its key is `productId`, as a stock row's). */
export type StockRemoval = StockRemovalPage['rows'][number];
export type Category = Ok<'listCategories'>[number];
export type Promotion = Ok<'listPromotions'>[number];

export type ProductQuery = Query<'listProducts'>;
export type StockQuery = Query<'listStock'>;
export type StoreQuery = Query<'listStores'>;
export type CategoryQuery = Query<'listCategories'>;
export type PromotionQuery = Query<'listPromotions'>;

type Responses<O extends Operation> = operations[O]['responses'];
type JsonOf<R> = R extends { content: { 'application/json': infer J } } ? J : never;
/** Every error answer any operation documents (each status may describe its own codes). */
type ErrorEnvelope = { [O in Operation]: JsonOf<Responses<O>[Exclude<keyof Responses<O>, 200>]> }[Operation];
type ErrorOf<Envelope> = Envelope extends { error: infer E } ? E : never;

/** The `error` object of the service's error envelope, as openapi.json describes it (a union when it has variants). */
export type ErrorBody = ErrorOf<ErrorEnvelope>;
/** The service's error codes. */
export type ErrorCode = ErrorBody['code'];
/** What openapi.json says of `details` for the code C. */
export type DocumentedDetails<C extends ErrorCode> = ErrorBody extends infer B
  ? B extends { code: infer K; details: infer D }
    ? C extends K
      ? D
      : never
    : never
  : never;

/** A paginated body: `{ rows, page, pageSize, total, totalPages }`. */
export type PageBody = ProductPage | StockPage | StorePage | ProductRemovalPage | StockRemovalPage;
export type RowOf<Body extends PageBody> = Body['rows'][number];

/** A page as the client hands it out: the body, and what the response's headers said about the walk. */
export type Page<Body extends PageBody> = Body & {
  /** The cursor of the next page (from the `Link` header's `rel="next"`), null on the last page. */
  readonly nextCursor: string | null;
  /** The `Sync-Position` header, on a walk that can keep a copy in sync; null otherwise. */
  readonly syncPosition: string | null;
};

/** Options of one call. */
export interface CallOptions {
  /** Aborts the call, its retries and its waits. */
  readonly signal?: AbortSignal;
  /** Sent as X-Request-Id (^[A-Za-z0-9_.:-]{1,80}$), echoed in the response and in an ApiError. */
  readonly requestId?: string;
}

/** Options of a walk over several pages. */
export interface WalkOptions {
  /** Aborts the walk, its retries and its waits. */
  readonly signal?: AbortSignal;
}
