export { createClient } from './client.js';
export type {
  Client,
  ClientOptions,
  ProductListQuery,
  RemovalsQuery,
  StockListQuery,
  StoreListQuery,
  SyncOptions,
} from './client.js';
export {
  ApiConnectionError,
  ApiError,
  IncompleteSyncError,
  isApiError,
  type ApiErrorCode,
  type ErrorDetailsByCode,
  type ParameterError,
} from './errors.js';
export { Listing } from './pagination.js';
export { SyncRound, type SyncHandlers } from './sync.js';
export {
  DEFAULT_RATE_LIMIT,
  DEFAULT_RETRY,
  DEFAULT_TIMEOUT_MS,
  type FetchLike,
  type RateLimitOptions,
  type RetryOptions,
  type WaitEvent,
} from './transport.js';
export type * from './types.js';
export type { components, operations, paths } from './generated/openapi.js';
