import { Global, Module } from '@nestjs/common';
import { DataScopeService } from './data-scope.js';
import { ScopedReader } from './scoped-reader.js';
import { StoresRepository } from './stores.repository.js';

@Global()
@Module({ providers: [DataScopeService, StoresRepository, ScopedReader], exports: [DataScopeService, ScopedReader] })
export class TenancyModule {}
