import type { HeaderObject, ParameterObject, ReferenceObject, ResponseObject } from '@nestjs/swagger';
import { SAMPLE_CURSOR, SAMPLE_SYNC_POSITION } from '../lists/samples.js';
import { SYNC_POSITION_PATTERN_TEXT } from '../lists/sync-position.js';

/**
 * What every /v1 operation shares, declared once as components (headers, error responses, the
 * X-Request-Id parameter) and referred to from each operation, so that the document states each
 * thing once and generators name it.
 */

const REQUEST_ID_RULE = '^[A-Za-z0-9_.:-]{1,80}$';

export const RESPONSE_HEADERS = {
  'X-Request-Id': {
    required: true,
    description: `The request id: yours when it matched ${REQUEST_ID_RULE}, else a generated req_… id. Quote it when reporting a problem.`,
    schema: { type: 'string', pattern: REQUEST_ID_RULE },
  },
  'RateLimit-Policy': {
    required: true,
    description:
      'The budget this request was counted against (draft-ietf-httpapi-ratelimit-headers-11): ' +
      '"per-client" (valid key) or "per-ip", quota q per window of w seconds. Do not hardcode ' +
      'these numbers.',
    schema: { type: 'string', example: '"per-client";q=600;w=60' },
  },
  RateLimit: {
    required: true,
    description:
      'What is left of that budget: r requests, and t seconds until the current fixed window ends and the ' +
      'budget is whole again (while over the budget: until the block ends, as Retry-After).',
    schema: { type: 'string', example: '"per-client";r=598;t=42' },
  },
  'Cache-Control': { required: true, description: 'Always no-store.', schema: { type: 'string', enum: ['no-store'] } },
  'WWW-Authenticate': { required: true, description: 'Always Bearer.', schema: { type: 'string', enum: ['Bearer'] } },
  'Retry-After': {
    required: true,
    description: 'Whole seconds to wait, at least 1.',
    schema: { type: 'integer', format: 'int32', minimum: 1 },
  },
  // The 200 headers of compression (see src/http/compression.ts).
  'Content-Encoding': {
    required: false,
    description:
      'The coding of the body when it is compressed: br, gzip (and zstd where the server has it), chosen from ' +
      'your Accept-Encoding with its q-values; absent for bodies under 1 KiB, without Accept-Encoding, or ' +
      'when no coding you accept is available. HTTP clients decompress it for you.',
    schema: { type: 'string', enum: ['br', 'gzip', 'zstd'] },
  },
  Vary: {
    required: false,
    description: 'Accept-Encoding: the body depends on it (unless the deployment turned compression off).',
    schema: { type: 'string', example: 'Accept-Encoding' },
  },
  // The 200 headers of a paginated list (see src/lists/page-headers.ts).
  Link: {
    required: true,
    description:
      'RFC 8288 links, relative to this server: `rel="next"` (while a next page exists) and `rel="first"`. ' +
      "The next URL repeats the request's parameters and adds a `cursor`; following it walks the whole list " +
      'in id order at the cost of the first page, whatever the depth.',
    schema: {
      type: 'string',
      example:
        `</v1/catalog/products?activeOnly=false&pageSize=100&cursor=${SAMPLE_CURSOR}>; rel="next", ` +
        '</v1/catalog/products?activeOnly=false&pageSize=100>; rel="first"',
    },
  },
  'Sync-Position': {
    required: false,
    description:
      'On a walk that can keep a copy in sync (activeOnly=false and no filter but storeId, begun without ' +
      '`page`): the position to store and send back as `changedSince` in the next round. The same on every ' +
      'page of one walk; taken when the walk began. Absent on other requests.',
    schema: { type: 'string', pattern: SYNC_POSITION_PATTERN_TEXT, example: SAMPLE_SYNC_POSITION },
  },
} satisfies Record<string, HeaderObject>;

export type ResponseHeader = keyof typeof RESPONSE_HEADERS;

/** References to components.headers, keyed by header name as a response lists them. */
export const headerRefs = (...names: ResponseHeader[]): Record<string, ReferenceObject> =>
  Object.fromEntries(names.map((name) => [name, { $ref: `#/components/headers/${name}` }]));

/** Headers on every response of a /v1 operation, whatever its status. */
export const COMMON_HEADERS: ResponseHeader[] = ['X-Request-Id', 'RateLimit-Policy', 'RateLimit', 'Cache-Control'];

/** Headers of a 200, whose JSON body is compressed as the client accepts. */
export const CODING_HEADERS: ResponseHeader[] = ['Content-Encoding', 'Vary'];

export const REQUEST_ID_PARAMETER: ParameterObject & Record<`x-${string}`, unknown> = {
  name: 'X-Request-Id',
  in: 'header',
  required: false,
  // No pattern here: the service accepts any value and replaces one that breaks the rule, so a
  // validator must not refuse the request.
  description:
    `Optional id of this request, echoed in the response when it matches ${REQUEST_ID_RULE} and does not ` +
    'look like an API key; otherwise (or when absent) the service uses a generated one starting with req_.',
  schema: { type: 'string' },
  'x-example': 'erp-sync-20261123-0001',
};
export const REQUEST_ID_PARAMETER_REF: ReferenceObject = { $ref: '#/components/parameters/X-Request-Id' };

const envelope = (code: string, message: string, details: Record<string, unknown> = {}) => ({
  error: { code, message, details, requestId: 'req_8GmKz2QpLr5TnW1xYb7cDf3h' },
});

/** The error statuses of every /v1 operation (docs/api-rules.md, "Errors"). */
const ERROR_RESPONSES: {
  status: number;
  name: string;
  description: string;
  headers?: ResponseHeader[];
  example: unknown;
}[] = [
  {
    status: 400,
    name: 'ValidationFailed',
    description:
      'validation_failed: a parameter is invalid, unknown, repeated or empty. details.errors lists every failing parameter.',
    example: envelope('validation_failed', 'Invalid parameters: storeID, pageSize.', {
      errors: [
        { in: 'query', name: 'storeID', message: 'is not a parameter of this operation' },
        { in: 'query', name: 'pageSize', message: 'must be a whole number from 1 to 100' },
      ],
    }),
  },
  {
    status: 401,
    name: 'Unauthorized',
    description:
      'unauthorized: the key is missing, malformed, unknown, expired or revoked, of the other ' +
      'environment, or its client is disabled or revoked. One message for every cause.',
    headers: ['WWW-Authenticate'],
    example: envelope('unauthorized', 'A valid API key is required in the Authorization header (Bearer).'),
  },
  {
    status: 403,
    name: 'ScopeDenied',
    description:
      'scope_denied: the key is valid but its client lacks the scope of this operation (details.requiredScopes).',
    example: envelope('scope_denied', 'The API key does not have the scope this operation requires.', {
      requiredScopes: ['inventory.stock.read'],
    }),
  },
  {
    status: 404,
    name: 'NotFound',
    description:
      "not_found: what the request names (a product, or the store of storeId) does not exist, or is another tenant's " +
      "or outside the key's stores: one answer for every cause. Each operation says what it looks up.",
    example: envelope('not_found', 'The requested resource was not found.'),
  },
  {
    status: 413,
    name: 'PayloadTooLarge',
    description: 'payload_too_large: the request carried a body larger than the limit (operations take no body).',
    example: envelope('payload_too_large', 'The request body is larger than this service accepts.'),
  },
  {
    status: 429,
    name: 'RateLimited',
    description:
      'rate_limited: the budget is spent, or this client asks for more than its share of the capacity. ' +
      'Wait Retry-After seconds (also in details.retryAfterSeconds), then retry with backoff.',
    headers: ['Retry-After'],
    example: envelope('rate_limited', 'Too many requests. Retry after the number of seconds in Retry-After.', {
      retryAfterSeconds: 17,
    }),
  },
  {
    status: 500,
    name: 'InternalError',
    description: 'internal_error: an unexpected error; the body says nothing more. Report the requestId.',
    example: envelope('internal_error', 'An internal error occurred. Report the requestId if the problem persists.'),
  },
  {
    status: 503,
    name: 'ServiceUnavailable',
    description:
      'service_unavailable: the service is over capacity (this client is within its share); nothing was done. ' +
      'Wait Retry-After seconds (also in details.retryAfterSeconds), then retry with backoff.',
    headers: ['Retry-After'],
    example: envelope(
      'service_unavailable',
      'The service is over capacity. Retry after the number of seconds in Retry-After.',
      {
        retryAfterSeconds: 1,
      },
    ),
  },
];

/** HEAD answers what GET would, without the body: its responses are named after GET's with this suffix. */
const HEAD_SUFFIX = 'Head';

/** components.responses: each error status, with its body (GET) and without (HEAD). */
export function errorResponseComponents(): Record<string, ResponseObject> {
  return Object.fromEntries(
    ERROR_RESPONSES.flatMap(({ name, description, headers = [], example }) => {
      const withHeaders = { description, headers: headerRefs(...COMMON_HEADERS, ...headers) };
      return [
        [
          name,
          {
            ...withHeaders,
            content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' }, example } },
          },
        ],
        [`${name}${HEAD_SUFFIX}`, { ...withHeaders, description: `${description} No body (HEAD).` }],
      ];
    }),
  );
}

/** An operation's error responses: references to components.responses. */
export const errorResponseRefs = (method: 'get' | 'head'): Record<string, ReferenceObject> =>
  Object.fromEntries(
    ERROR_RESPONSES.map(({ status, name }) => [
      String(status),
      { $ref: `#/components/responses/${name}${method === 'head' ? HEAD_SUFFIX : ''}` },
    ]),
  );
