import { Link } from 'wouter';
import { Button } from '../../../components/ui/button';
import { paths } from '../../../config/paths';
import { saveCookieConsent, useCookieConsent } from '../store';
import '../cookie-consent.css';

/** spec 01 §2 "Cookie consent banner": shown at the bottom until a choice is stored. */
export function CookieConsentBanner() {
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
          Cookie Policy
        </h2>
        <p>
          We use essential cookies to keep you signed in and the site secure. With your consent we
          may also use cookies to understand how the site is used. See our{' '}
          <Link href={paths.privacyPolicy}>Protection Policy</Link>.
        </p>
      </div>
      <div className="cookie-banner__actions">
        <Button
          variant="secondary"
          onClick={() => saveCookieConsent({ analytics: false, marketing: false })}
        >
          Essential Only
        </Button>
        <Button
          variant="primary"
          onClick={() => saveCookieConsent({ analytics: true, marketing: true })}
        >
          Accept All
        </Button>
      </div>
    </section>
  );
}
