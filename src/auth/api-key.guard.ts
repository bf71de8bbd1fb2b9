import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { ApiError } from '../http/api-error.js';
import { CallerResolver } from './caller-resolver.js';
import { routeAccess } from './require-scope.decorator.js';

/** Establishes the caller from `Authorization: Bearer <key>`; every failure is the same 401. */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly callers: CallerResolver,
  ) {}

  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    if (routeAccess(this.reflector, context).isPublic) return true;
    const req = context.switchToHttp().getRequest<Request>();
    // The rate limiter, which runs first on every /v1 request, has set it only for a valid key.
    if (req.caller !== undefined) return true;
    return this.authenticate(req);
  }

  private async authenticate(req: Request): Promise<boolean> {
    const caller = await this.callers.resolve(req);
    if (!caller) throw ApiError.unauthorized();
    req.caller = caller;
    return true;
  }
}
