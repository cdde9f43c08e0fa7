import 'i18next';
import type client from '../../locales/client/en.json';
import type documentation from '../../locales/documentation/en.json';
import type earn from '../../locales/earn/en.json';
import type economics from '../../locales/economics/en.json';
import type email from '../../locales/email/en.json';
import type en from '../../locales/en.json';
import type errors from '../../locales/errors/en.json';
import type faq from '../../locales/faq/en.json';
import type legal from '../../locales/legal/en.json';
import type node from '../../locales/node/en.json';
import type ourView from '../../locales/our-view/en.json';
import type security from '../../locales/security/en.json';
import type subPage from '../../locales/sub-page/en.json';
import type support from '../../locales/support/en.json';
import type vantage from '../../locales/vantage/en.json';
import type wallet from '../../locales/wallet/en.json';

/** Keys of `t()` are checked against each namespace's source catalogue (docs/i18n.md). */
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: {
      translation: typeof en;
      client: typeof client;
      wallet: typeof wallet;
      earn: typeof earn;
      node: typeof node;
      vantage: typeof vantage;
      errors: typeof errors;
      economics: typeof economics;
      faq: typeof faq;
      documentation: typeof documentation;
      support: typeof support;
      security: typeof security;
      'our-view': typeof ourView;
      legal: typeof legal;
      // The control plane's (its e-mails, the subscription page); the portal never loads them.
      email: typeof email;
      'sub-page': typeof subPage;
    };
  }
}
