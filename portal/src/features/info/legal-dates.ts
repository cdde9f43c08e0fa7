/** spec 02 §2: both legal documents were last updated on this date. */
export const LEGAL_LAST_UPDATED = { label: 'May 6, 2025', iso: '2025-05-06' } as const;
