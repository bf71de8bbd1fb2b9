import { applyDecorators, Header, type Type } from '@nestjs/common';
import { ApiBearerAuth, ApiExtension, ApiOperation, ApiResponse, type ReferenceObject } from '@nestjs/swagger';
import { RequireScope } from '../auth/require-scope.decorator.js';
import { type ScopeRequirement, scopesOf } from '../auth/scopes.js';
import { CODING_HEADERS, COMMON_HEADERS, headerRefs } from './responses.js';

export const BEARER_SCHEME = 'apiKey';

/** The extension that marks a /v1 operation; buildOpenApiDocument completes the operations it marks. */
export const REQUIRED_SCOPES_EXTENSION = 'x-required-scopes';

/** The 200 headers of a paginated list (see src/lists/page-headers.ts). */
const PAGE_HEADERS = headerRefs('Link', 'Sync-Position');

/** The one 404 of a paginated list: its storeId filter names a store the key may not read. */
const LIST_NOT_FOUND =
  "storeId names a store that does not exist, belongs to another tenant or is outside the key's stores (one answer for all three).";

export interface V1OperationOptions {
  /** One scope, or `any` of the read scopes. */
  scope: ScopeRequirement;
  operationId: string;
  summary: string;
  description: string;
  ok: {
    type: Type<unknown>;
    isArray?: boolean;
    description: string;
    headers?: Record<string, ReferenceObject>;
  };
  /** When the operation answers 404 not_found (shown in its description). */
  notFound: string;
}

/**
 * A /v1 operation: its required scope (enforced by ScopeGuard and documented, so the two cannot
 * drift), and its OpenAPI description with its 200. buildOpenApiDocument adds what every /v1
 * operation shares: the error responses, the X-Request-Id parameter and the HEAD operation.
 */
export function V1Operation(options: V1OperationOptions): MethodDecorator {
  const scopes = scopesOf(options.scope);
  const required =
    scopes.length === 1 ? `\`${scopes[0]}\`` : `any one of ${scopes.map((scope) => `\`${scope}\``).join(', ')}`;
  return applyDecorators(
    RequireScope(options.scope),
    // Services answer JSON text that PostgreSQL wrote (see src/database/sql-format.ts), sent as is.
    Header('Content-Type', 'application/json; charset=utf-8'),
    ApiOperation({
      operationId: options.operationId,
      summary: options.summary,
      description:
        `${options.description}\n\n**Required scope:** ${required}\n\n` + `**404 not_found:** ${options.notFound}`,
    }),
    // Any one of them is enough.
    ApiExtension(REQUIRED_SCOPES_EXTENSION, [...scopes]),
    ApiBearerAuth(BEARER_SCHEME),
    ApiResponse({
      status: 200,
      description: options.ok.description,
      type: options.ok.type,
      isArray: options.ok.isArray,
      headers: { ...headerRefs(...COMMON_HEADERS, ...CODING_HEADERS), ...options.ok.headers },
    }),
  );
}

export interface V1ListOperationOptions extends Omit<V1OperationOptions, 'ok' | 'notFound'> {
  /** The page's schema and its 200 description. */
  page: { type: Type<unknown>; description: string };
}

/** A paginated list's GET: a V1Operation whose 200 carries Link and Sync-Position and whose 404 is storeId's. */
export function V1ListOperation(options: V1ListOperationOptions): MethodDecorator {
  const { page, ...operation } = options;
  return V1Operation({ ...operation, ok: { ...page, headers: PAGE_HEADERS }, notFound: LIST_NOT_FOUND });
}
