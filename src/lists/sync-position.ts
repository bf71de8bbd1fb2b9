/** A sync position as clients see it: opaque; inside, the first transaction the next round must read. */
export const SYNC_POSITION_PATTERN_TEXT = '^sp_[0-9]{1,19}$';
export const toSyncPosition = (transaction: string): string => `sp_${transaction}`;
export const fromSyncPosition = (position: string): string => position.slice('sp_'.length);
