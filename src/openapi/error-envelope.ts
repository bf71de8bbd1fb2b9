import type { SchemaObject } from '@nestjs/swagger';
import { SCOPES } from '../auth/scopes.js';
import { type ErrorCode } from '../http/api-error.js';

/**
 * The error envelope of every non-200 response, `{ "error": { code, message, details, requestId } }`,
 * as components.schemas. `details` has one shape per code, so ErrorBody is one schema per shape,
 * told apart by `code` (an OpenAPI discriminator): a generated client gets `details` typed after it
 * narrowed on `code`.
 */
const ref = (name: string): { $ref: string } => ({ $ref: `#/components/schemas/${name}` });

const errorBody = (codes: ErrorCode[], details: string, description: string): SchemaObject => ({
  type: 'object',
  description,
  required: ['code', 'message', 'details', 'requestId'],
  additionalProperties: false,
  properties: {
    code: { type: 'string', enum: codes, description: 'Match on this, not on message.' },
    message: { type: 'string', description: 'Human-readable, not localized; the text may change.' },
    details: ref(details),
    requestId: {
      type: 'string',
      pattern: '^[A-Za-z0-9_.:-]{1,80}$',
      description: 'Same value as the X-Request-Id response header.',
    },
  },
});

/** Which body each code has (the discriminator's mapping). */
const BODY_OF_CODE: Record<ErrorCode, string> = {
  validation_failed: 'ValidationFailedError',
  unauthorized: 'PlainError',
  scope_denied: 'ScopeDeniedError',
  not_found: 'PlainError',
  payload_too_large: 'PlainError',
  rate_limited: 'RateLimitedError',
  internal_error: 'PlainError',
  service_unavailable: 'ServiceUnavailableError',
};

export const ERROR_SCHEMAS: Record<string, SchemaObject> = {
  ErrorEnvelope: {
    type: 'object',
    description: 'Every non-200 response.',
    required: ['error'],
    additionalProperties: false,
    properties: { error: ref('ErrorBody') },
  },
  ErrorBody: {
    description: 'The error; `details` has the shape of its `code`.',
    oneOf: [...new Set(Object.values(BODY_OF_CODE))].map(ref),
    discriminator: {
      propertyName: 'code',
      mapping: Object.fromEntries(Object.entries(BODY_OF_CODE).map(([code, body]) => [code, ref(body).$ref])),
    },
  },
  ValidationFailedError: errorBody(['validation_failed'], 'ValidationFailedDetails', '400 validation_failed.'),
  ScopeDeniedError: errorBody(['scope_denied'], 'ScopeDeniedDetails', '403 scope_denied.'),
  RateLimitedError: errorBody(['rate_limited'], 'RateLimitedDetails', '429 rate_limited.'),
  ServiceUnavailableError: errorBody(['service_unavailable'], 'RateLimitedDetails', '503 service_unavailable.'),
  PlainError: errorBody(
    ['unauthorized', 'not_found', 'payload_too_large', 'internal_error'],
    'NoDetails',
    '401 unauthorized, 404 not_found, 413 payload_too_large and 500 internal_error: nothing more to say.',
  ),
  ValidationFailedDetails: {
    type: 'object',
    required: ['errors'],
    additionalProperties: false,
    properties: {
      errors: {
        type: 'array',
        items: ref('ParameterError'),
        description:
          'One entry per failing parameter; empty when the request as a whole is malformed (the message says how).',
      },
    },
  },
  ParameterError: {
    type: 'object',
    required: ['in', 'name', 'message'],
    additionalProperties: false,
    properties: {
      in: { type: 'string', enum: ['query', 'path'] },
      name: { type: 'string', description: 'The parameter, as sent (an unknown one too).' },
      message: { type: 'string', description: 'What is wrong with it; the text may change.' },
    },
  },
  ScopeDeniedDetails: {
    type: 'object',
    required: ['requiredScopes'],
    additionalProperties: false,
    properties: {
      requiredScopes: {
        type: 'array',
        minItems: 1,
        // Strings, not an enum: a client generated today must still read the error of a scope added later.
        items: { type: 'string' },
        description: `The scope the operation needs: one of ${SCOPES.join(', ')}.`,
      },
    },
  },
  RateLimitedDetails: {
    type: 'object',
    required: ['retryAfterSeconds'],
    additionalProperties: false,
    properties: {
      retryAfterSeconds: {
        type: 'integer',
        format: 'int32',
        minimum: 1,
        description: 'Seconds to wait, as in the Retry-After header.',
      },
    },
  },
  NoDetails: { type: 'object', additionalProperties: false, description: 'Always `{}`.' },
};
