import { applyDecorators, SetMetadata } from '@nestjs/common';
import type { ScopeRequirement } from './scopes.js';

export const REQUIRED_SCOPE = 'auth:required-scope';
export const PUBLIC_ROUTE = 'auth:public';

/** The scope a /v1 operation requires (or `any` read scope). A /v1 route without it is refused by ScopeGuard. */
export const RequireScope = (scope: ScopeRequirement): MethodDecorator & ClassDecorator =>
  applyDecorators(SetMetadata(REQUIRED_SCOPE, scope));

/** Routes outside /v1 (health, metrics) that take no API key. */
export const PublicRoute = (): MethodDecorator & ClassDecorator => SetMetadata(PUBLIC_ROUTE, true);
