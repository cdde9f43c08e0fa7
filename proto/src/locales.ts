/**
 * The languages of the portal, its e-mails and the subscription page (docs/i18n.md): an account
 * may save one of them as its preference.
 */
export const LOCALES = ['en', 'fa', 'ru', 'zh'] as const;
export type Locale = (typeof LOCALES)[number];
