/**
 * docs/product/screens.md#dashboards-and-information-pages: both legal documents were last updated on this day (ISO), shown in the reader's
 * language and calendar (`formatDate`, Solar Hijri for Persian).
 */
export const LEGAL_LAST_UPDATED = '2025-05-06';
