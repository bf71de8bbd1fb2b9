import { type CanActivate, type ExecutionContext, Injectable, Logger } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { ApiError } from '../http/api-error.js';
import { routeAccess } from './require-scope.decorator.js';

/** Requires the route's declared scope (any one of them); a non-public route that declares none is refused. */
@Injectable()
export class ScopeGuard implements CanActivate {
  private readonly logger = new Logger(ScopeGuard.name);

  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const { isPublic, accepted } = routeAccess(this.reflector, context);
    if (isPublic) return true;
    if (accepted === undefined) {
      this.logger.error(`route ${context.getClass().name}.${context.getHandler().name} declares no scope; refused`);
      throw ApiError.scopeDenied([]);
    }
    const caller = context.switchToHttp().getRequest<Request>().caller;
    if (!accepted.some((one) => caller?.scopes.has(one))) throw ApiError.scopeDenied([...accepted]);
    return true;
  }
}
