import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { ApiError } from '../http/api-error.js';
import { CallerResolver } from './caller-resolver.js';
import { PUBLIC_ROUTE } from './require-scope.decorator.js';

/** Establishes the caller from `Authorization: Bearer <key>`; every failure is the same 401. */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly callers: CallerResolver,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC_ROUTE, [context.getHandler(), context.getClass()]))
      return true;
    const req = context.switchToHttp().getRequest<Request>();
    const caller = await this.callers.resolve(req);
    if (!caller) throw ApiError.unauthorized();
    req.caller = caller;
    return true;
  }
}
