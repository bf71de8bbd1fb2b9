import { Global, Module } from '@nestjs/common';
import { DataScopeService } from './data-scope.js';

@Global()
@Module({ providers: [DataScopeService], exports: [DataScopeService] })
export class TenancyModule {}
