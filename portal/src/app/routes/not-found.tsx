import { Link } from 'wouter';
import { buttonClass } from '../../components/ui/button';
import { paths } from '../../config/paths';
import { useT } from '../../lib/i18n/i18n';
import './not-found.css';

/** docs/product/screens.md#dashboards-and-information-pages "Not-found page". */
export function NotFoundRoute() {
  const { t } = useT('errors');
  return (
    <div className="container page not-found">
      <p className="not-found__code" aria-hidden="true">
        404
      </p>
      <h1>{t('notFound.title')}</h1>
      <p className="muted">{t('notFound.body')}</p>
      <Link href={paths.home} className={buttonClass({ variant: 'primary' })}>
        {t('notFound.home')}
      </Link>
    </div>
  );
}
