import { Global, Module } from '@nestjs/common';
import { CursorCodec } from './cursor.js';
import { ListEngine } from './list-engine.js';
import { SyncPositions } from './sync-position.js';

@Global()
@Module({ providers: [CursorCodec, SyncPositions, ListEngine], exports: [ListEngine] })
export class ListsModule {}
