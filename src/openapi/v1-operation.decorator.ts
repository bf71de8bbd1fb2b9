import { applyDecorators, Header, type Type } from '@nestjs/common';
import { ApiBearerAuth, ApiExtension, ApiHeader, ApiOperation, ApiResponse } from '@nestjs/swagger';
import { RequireScope } from '../auth/require-scope.decorator.js';
import type { Scope } from '../auth/scopes.js';
import { ERROR_EXAMPLES } from './error-envelope.js';

const ERROR_ENVELOPE = { $ref: '#/components/schemas/ErrorEnvelope' };

export const BEARER_SCHEME = 'apiKey';

const REQUEST_ID_HEADER = {
  description:
    'The request id: yours when it matched ^[A-Za-z0-9_.:-]{1,80}$, else a generated req_… id. Quote it when reporting a problem.',
  schema: { type: 'string', pattern: '^[A-Za-z0-9_.:-]{1,80}$' },
};
const RATE_LIMIT_HEADERS = {
  'RateLimit-Policy': {
    description:
      'The budget this request was counted against (draft-ietf-httpapi-ratelimit-headers-11): ' +
      '"per-client" (valid key) or "per-ip", quota q per window of w seconds. Do not hardcode ' +
      'these numbers.',
    schema: { type: 'string', example: '"per-client";q=600;w=60' },
  },
  RateLimit: {
    description:
      'What is left of that budget: r requests, and t seconds until the current fixed window ends and the ' +
      'budget is whole again (while over the budget: until the block ends, as Retry-After).',
    schema: { type: 'string', example: '"per-client";r=598;t=42' },
  },
};
const COMMON_HEADERS = {
  'X-Request-Id': REQUEST_ID_HEADER,
  ...RATE_LIMIT_HEADERS,
  'Cache-Control': { description: 'Always no-store.', schema: { type: 'string', enum: ['no-store'] } },
};

const errors = (notFound: string) => [
  ApiResponse({
    status: 400,
    description:
      'validation_failed: a parameter is invalid, unknown, repeated or empty. details.errors lists every failing parameter.',
    schema: ERROR_ENVELOPE,
    headers: COMMON_HEADERS,
    example: ERROR_EXAMPLES[400],
  }),
  ApiResponse({
    status: 401,
    description:
      'unauthorized: the key is missing, malformed, unknown, expired or revoked, of the other ' +
      'environment, or its client is disabled or revoked. One message for every cause.',
    schema: ERROR_ENVELOPE,
    headers: {
      ...COMMON_HEADERS,
      'WWW-Authenticate': { description: 'Always Bearer.', schema: { type: 'string', enum: ['Bearer'] } },
    },
    example: ERROR_EXAMPLES[401],
  }),
  ApiResponse({
    status: 403,
    description:
      'scope_denied: the key is valid but its client lacks the scope of this operation (details.requiredScopes).',
    schema: ERROR_ENVELOPE,
    headers: COMMON_HEADERS,
    example: ERROR_EXAMPLES[403],
  }),
  ApiResponse({
    status: 404,
    description: `not_found: ${notFound}`,
    schema: ERROR_ENVELOPE,
    headers: COMMON_HEADERS,
    example: ERROR_EXAMPLES[404],
  }),
  ApiResponse({
    status: 413,
    description: 'payload_too_large: the request carried a body larger than the limit (operations take no body).',
    schema: ERROR_ENVELOPE,
    headers: COMMON_HEADERS,
    example: ERROR_EXAMPLES[413],
  }),
  ApiResponse({
    status: 429,
    description:
      'rate_limited: the budget is spent. Wait Retry-After seconds (also in details.retryAfterSeconds), then retry with backoff.',
    schema: ERROR_ENVELOPE,
    headers: {
      ...COMMON_HEADERS,
      'Retry-After': {
        description: 'Whole seconds to wait, at least 1.',
        schema: { type: 'integer', format: 'int32', minimum: 1 },
      },
    },
    example: ERROR_EXAMPLES[429],
  }),
  ApiResponse({
    status: 500,
    description: 'internal_error: an unexpected error; the body says nothing more. Report the requestId.',
    schema: ERROR_ENVELOPE,
    headers: COMMON_HEADERS,
    example: ERROR_EXAMPLES[500],
  }),
];

/** The 200 headers of a paginated list (see src/pagination/links.ts). */
export const PAGE_HEADERS = {
  Link: {
    description:
      'RFC 8288 links, relative to this server: `rel="next"` (while a next page exists) and `rel="first"`. ' +
      "The next URL repeats the request's parameters and adds a `cursor`; following it walks the whole list " +
      'in id order at the cost of the first page, whatever the depth.',
    schema: {
      type: 'string',
      example:
        '</v1/catalog/products?activeOnly=false&pageSize=100&cursor=WzEsIjNL...Il0.cVd3...>; rel="next", ' +
        '</v1/catalog/products?activeOnly=false&pageSize=100>; rel="first"',
    },
  },
  'Sync-Position': {
    description:
      'On a walk that can keep a copy in sync (activeOnly=false and no filter but storeId, begun without ' +
      '`page`): the position to store and send back as `changedSince` in the next round. The same on every ' +
      'page of one walk; taken when the walk began. Absent on other requests.',
    required: false,
    schema: { type: 'string', pattern: '^sp_[0-9]{1,19}$', example: 'sp_7406311' },
  },
} as const;

export interface V1OperationOptions {
  scope: Scope;
  operationId: string;
  summary: string;
  description: string;
  ok: {
    type: Type<unknown>;
    isArray?: boolean;
    description: string;
    headers?: Record<string, { description: string; required?: boolean; schema: Record<string, unknown> }>;
  };
  notFound: string;
}

/**
 * A /v1 operation: its required scope (enforced by ScopeGuard and documented, so the two cannot
 * drift), and its OpenAPI description with every status it can answer.
 */
export function V1Operation(options: V1OperationOptions): MethodDecorator {
  return applyDecorators(
    RequireScope(options.scope),
    // Services answer JSON text that PostgreSQL wrote (see src/database/sql-format.ts), sent as is.
    Header('Content-Type', 'application/json; charset=utf-8'),
    ApiOperation({
      operationId: options.operationId,
      summary: options.summary,
      description: `${options.description}\n\n**Required scope:** \`${options.scope}\``,
    }),
    ApiExtension('x-required-scopes', [options.scope]),
    ApiBearerAuth(BEARER_SCHEME),
    ApiHeader({
      name: 'X-Request-Id',
      required: false,
      description:
        'Optional id of this request, echoed in the response when it matches ^[A-Za-z0-9_.:-]{1,80}$ and does not ' +
        'look like an API key; otherwise (or when absent) the service uses a generated one starting with req_.',
      // No pattern: the service accepts any value and replaces one that breaks the rule, so a validator
      // must not refuse the request.
      schema: { type: 'string' },
    }),
    ApiResponse({
      status: 200,
      description: options.ok.description,
      type: options.ok.type,
      isArray: options.ok.isArray,
      headers: { ...COMMON_HEADERS, ...options.ok.headers },
    }),
    ...errors(options.notFound),
  );
}
