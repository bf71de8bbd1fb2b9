import { Global, Module } from '@nestjs/common';
import { StoreScopeService } from './store-scope.js';

@Global()
@Module({ providers: [StoreScopeService], exports: [StoreScopeService] })
export class TenancyModule {}
