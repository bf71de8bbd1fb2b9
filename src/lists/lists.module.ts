import { Global, Module } from '@nestjs/common';
import { CursorCodec } from './cursor.js';
import { ListEngine } from './list-engine.js';
import { SyncHousekeeping } from '../database/sync-housekeeping.js';
import { StoredRowsState } from './stored-rows-state.js';
import { SyncPositions } from './sync-position.js';

@Global()
@Module({
  providers: [CursorCodec, SyncPositions, ListEngine, SyncHousekeeping, StoredRowsState],
  exports: [ListEngine, SyncHousekeeping, StoredRowsState],
})
export class ListsModule {}
