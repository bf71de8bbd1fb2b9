import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { ApiError } from '../shared/http/api-error.js';
import { ApiKeyService } from './api-key.service.js';
import { PUBLIC_ROUTE } from './require-scope.decorator.js';

/** `Bearer` in any case, exactly one space, then the key. */
const BEARER = /^bearer ([^\s]+)$/i;

/** Establishes the caller from `Authorization: Bearer <key>`; every failure is the same 401. */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly keys: ApiKeyService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC_ROUTE, [context.getHandler(), context.getClass()])) return true;
    const req = context.switchToHttp().getRequest<Request>();
    const header = req.headers.authorization;
    const match = typeof header === 'string' ? BEARER.exec(header) : null;
    const caller = match ? await this.keys.authenticate(match[1]) : null;
    if (!caller) throw ApiError.unauthorized();
    req.caller = caller;
    return true;
  }
}
