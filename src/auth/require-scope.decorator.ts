import { applyDecorators, type ExecutionContext, SetMetadata } from '@nestjs/common';
import type { Reflector } from '@nestjs/core';
import { type Scope, type ScopeRequirement, scopesOf } from './scopes.js';

export const REQUIRED_SCOPE = 'auth:required-scope';
export const PUBLIC_ROUTE = 'auth:public';

/** The scope a /v1 operation requires (or `any` read scope). A /v1 route without it is refused by ScopeGuard. */
export const RequireScope = (scope: ScopeRequirement): MethodDecorator & ClassDecorator =>
  applyDecorators(SetMetadata(REQUIRED_SCOPE, scope));

/** Routes outside /v1 (health, metrics) that take no API key. */
export const PublicRoute = (): MethodDecorator & ClassDecorator => SetMetadata(PUBLIC_ROUTE, true);

/** What a route declares for the guards, read once per handler (Reflector reads metadata on every call). */
export interface RouteAccess {
  readonly isPublic: boolean;
  /** The scopes any one of which the route accepts; undefined when a non-public route declares none. */
  readonly accepted: readonly Scope[] | undefined;
}

/** Per controller class, then per handler (a handler inherited by two controllers may differ in each). */
const accessByRoute = new WeakMap<object, Map<object, RouteAccess>>();

export function routeAccess(reflector: Reflector, context: ExecutionContext): RouteAccess {
  const handler = context.getHandler();
  const controller = context.getClass();
  let routes = accessByRoute.get(controller);
  if (routes === undefined) accessByRoute.set(controller, (routes = new Map()));
  let access = routes.get(handler);
  if (access === undefined) {
    const targets = [handler, controller];
    const scope = reflector.getAllAndOverride<ScopeRequirement | undefined>(REQUIRED_SCOPE, targets);
    access = {
      isPublic: reflector.getAllAndOverride<boolean>(PUBLIC_ROUTE, targets) === true,
      accepted: scope === undefined ? undefined : scopesOf(scope),
    };
    routes.set(handler, access);
  }
  return access;
}
