import { appImportLinks } from '@scn/proto';
import { useId } from 'react';
import { useT } from '../../lib/i18n/i18n';
import { buttonClass } from '../ui/button';
import './open-in-app.css';

export interface OpenInAppProps {
  /** The subscription URL (`/sub/<secret>`): the apps fetch it, a browser shows its page. */
  url: string;
  /** What the app names the imported profile. */
  name: string;
}

/**
 * One tap from a phone into the client app: each app's deep link with the subscription URL (the
 * same table as the subscription page, `@scn/proto` appImportLinks), and the subscription page
 * itself for an app that is not listed. Used after a purchase and in the dashboard's QR dialog.
 */
export function OpenInApp({ url, name }: OpenInAppProps) {
  const { t } = useT('client');
  const titleId = useId();
  return (
    <section className="open-in-app" aria-labelledby={titleId} data-testid="open-in-app">
      <h3 id={titleId} className="open-in-app__title">
        {t('open.title')}
      </h3>
      <p className="small muted">{t('open.hint')}</p>
      <div className="open-in-app__apps">
        {appImportLinks(url, name).map((link) => (
          <a
            key={link.id}
            className={buttonClass({ variant: 'secondary', size: 'sm' })}
            href={link.href}
            data-testid={`open-in-${link.id}`}
          >
            {t('open.openIn', { app: link.app })}
          </a>
        ))}
      </div>
      <a
        className="arrow-link small"
        href={url}
        target="_blank"
        rel="noopener noreferrer"
        data-testid="subscription-page-link"
      >
        {t('open.page')}
      </a>
    </section>
  );
}
