import { ApiProperty } from '@nestjs/swagger';
import { ERROR_CODES } from '../http/api-error.js';

export class ErrorBody {
  @ApiProperty({ enum: [...ERROR_CODES], enumName: 'ErrorCode', description: 'Match on this, not on message.' })
  code: string;

  @ApiProperty({ type: String, description: 'Human-readable, not localized; the text may change.' })
  message: string;

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description:
      'Shape depends on code: validation_failed → { errors: [{ in: "query" | "path", name, ' +
      'message }] } with one entry per failing parameter; ' +
      'scope_denied → { requiredScopes: [scope] }; rate_limited → { retryAfterSeconds: n }; otherwise {}.',
  })
  details: Record<string, unknown>;

  @ApiProperty({
    type: String,
    pattern: '^[A-Za-z0-9_.:-]{1,80}$',
    description: 'Same value as the X-Request-Id response header.',
    example: 'req_8GmKz2QpLr5TnW1xYb7cDf3h',
  })
  requestId: string;
}

/** Every non-200 response: `{ "error": { code, message, details, requestId } }`. */
export class ErrorEnvelope {
  @ApiProperty({ type: () => ErrorBody }) error: ErrorBody;
}

const envelope = (code: string, message: string, details: Record<string, unknown> = {}) => ({
  error: { code, message, details, requestId: 'req_8GmKz2QpLr5TnW1xYb7cDf3h' },
});

export const ERROR_EXAMPLES = {
  400: envelope('validation_failed', 'One or more parameters are invalid.', {
    errors: [
      { in: 'query', name: 'pageSize', message: 'must be a whole number from 1 to 100' },
      { in: 'query', name: 'storeID', message: 'is not a parameter of this operation' },
    ],
  }),
  401: envelope('unauthorized', 'A valid API key is required in the Authorization header (Bearer).'),
  403: envelope('scope_denied', 'The API key does not have the scope this operation requires.', {
    requiredScopes: ['catalog.products.read'],
  }),
  404: envelope('not_found', 'The requested resource was not found.'),
  413: envelope('payload_too_large', 'The request body is larger than this service accepts.'),
  429: envelope('rate_limited', 'Too many requests. Retry after the number of seconds in Retry-After.', {
    retryAfterSeconds: 17,
  }),
  500: envelope('internal_error', 'An internal error occurred. Report the requestId if the problem persists.'),
} as const;
