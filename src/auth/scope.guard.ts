import { type CanActivate, type ExecutionContext, Injectable, Logger } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { ApiError } from '../http/api-error.js';
import { PUBLIC_ROUTE, REQUIRED_SCOPE } from './require-scope.decorator.js';
import { type ScopeRequirement, scopesOf } from './scopes.js';

/** Requires the route's declared scope (any one of them); a non-public route that declares none is refused. */
@Injectable()
export class ScopeGuard implements CanActivate {
  private readonly logger = new Logger(ScopeGuard.name);

  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC_ROUTE, targets)) return true;
    const scope = this.reflector.getAllAndOverride<ScopeRequirement | undefined>(REQUIRED_SCOPE, targets);
    if (!scope) {
      this.logger.error(`route ${context.getClass().name}.${context.getHandler().name} declares no scope; refused`);
      throw ApiError.scopeDenied([]);
    }
    const caller = context.switchToHttp().getRequest<Request>().caller;
    const accepted = scopesOf(scope);
    if (!accepted.some((one) => caller?.scopes.has(one))) throw ApiError.scopeDenied([...accepted]);
    return true;
  }
}
