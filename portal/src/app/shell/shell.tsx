import type { ReactNode } from 'react';
import { AuthFlow } from '../../features/auth/components/auth-flow';
import { CookieConsentBanner } from '../../features/cookie-consent/components/cookie-consent-banner';
import { signIn } from '../../features/session/store';
import { useT } from '../../lib/i18n/i18n';
import { Footer } from './footer';
import { TopBar } from './top-bar';
import './shell.css';

/** docs/product/screens.md#the-shell-and-the-market-screens "Shell": top bar, page, footer, and the global auth and cookie surfaces. */
export function Shell({ children }: { children: ReactNode }) {
  const { t } = useT();
  return (
    <div className="app">
      <a className="skip-link" href="#main">
        {t('shell.skipToContent')}
      </a>
      <TopBar />
      <main id="main" className="app__main" tabIndex={-1}>
        {children}
      </main>
      <Footer />
      <CookieConsentBanner />
      <AuthFlow onAuthenticated={signIn} />
    </div>
  );
}
