import { Global, Module } from '@nestjs/common';
import { CursorCodec } from './cursor.js';
import { ListEngine } from './list-engine.js';
import { SyncHousekeeping } from '../database/sync-housekeeping.js';
import { RowWritersState } from './row-writers-state.js';
import { SyncPositions } from './sync-position.js';

@Global()
@Module({
  providers: [CursorCodec, SyncPositions, ListEngine, SyncHousekeeping, RowWritersState],
  exports: [ListEngine, SyncHousekeeping, RowWritersState],
})
export class ListsModule {}
