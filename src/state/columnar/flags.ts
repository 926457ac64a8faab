/** Entry flags of the columnar table (one byte per entry); a flag of 0 means a free entry. */
export const LIVE = 1;
/** Changed in the open batch (its buffer values were saved for an abort). */
export const TOUCHED = 2;
/** Inserted in the open batch (an abort releases it). */
export const INSERTED = 4;
/** Removed in the open batch (an abort puts it back). */
export const REMOVED = 8;
