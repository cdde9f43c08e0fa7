import 'i18next';
import type en from '../../locales/en.json';

/** Keys of `t()` are checked against the source catalogue (docs/i18n.md). */
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: typeof en };
  }
}
