import { Trans } from 'react-i18next';
import { Link } from 'wouter';
import { Button } from '../../../components/ui/button';
import { paths } from '../../../config/paths';
import { useT } from '../../../lib/i18n/i18n';
import { saveCookieConsent, useCookieConsent } from '../store';
import '../cookie-consent.css';

/** docs/product/screens.md#the-shell-and-the-market-screens "Cookie consent banner": shown at the bottom until a choice is stored. */
export function CookieConsentBanner() {
  const { t } = useT();
  const { consent } = useCookieConsent();
  if (consent) return null;
  return (
    <section
      className="cookie-banner"
      aria-labelledby="cookie-banner-title"
      data-testid="cookie-banner"
    >
      <div className="cookie-banner__text">
        <h2 id="cookie-banner-title" className="cookie-banner__title">
          {t('cookies.title')}
        </h2>
        <p>
          <Trans
            i18nKey="cookies.text"
            components={{ policy: <Link href={paths.privacyPolicy} /> }}
          />
        </p>
      </div>
      <div className="cookie-banner__actions">
        <Button
          variant="secondary"
          onClick={() => saveCookieConsent({ analytics: false, marketing: false })}
        >
          {t('cookies.essentialOnly')}
        </Button>
        <Button
          variant="primary"
          onClick={() => saveCookieConsent({ analytics: true, marketing: true })}
        >
          {t('cookies.acceptAll')}
        </Button>
      </div>
    </section>
  );
}
