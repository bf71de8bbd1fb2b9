import { Global, Module } from '@nestjs/common';
import { RowTrust } from '../lists/row-trust.js';
import { RowWritersState } from './row-writers-state.js';

/** The check of what the row writers rely on (RowWritersState), and the list engine's RowTrust. */
@Global()
@Module({
  providers: [RowWritersState, { provide: RowTrust, useExisting: RowWritersState }],
  exports: [RowWritersState, RowTrust],
})
export class RowWritersModule {}
