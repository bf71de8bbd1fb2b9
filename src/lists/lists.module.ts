import { Global, Module } from '@nestjs/common';
import { CursorCodec } from './cursor.js';
import { ListEngine } from './list-engine.js';
import { SyncHousekeeping } from '../database/sync-housekeeping.js';
import { SyncPositions } from './sync-position.js';

@Global()
@Module({
  providers: [CursorCodec, SyncPositions, ListEngine, SyncHousekeeping],
  exports: [ListEngine, SyncHousekeeping],
})
export class ListsModule {}
