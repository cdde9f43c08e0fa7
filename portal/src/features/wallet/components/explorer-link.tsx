import { useT } from '../../../lib/i18n/i18n';

/** A transaction's page on the cluster's explorer, in a new tab (the wallet's lists). */
export function ExplorerLink({ href, testId }: { href: string; testId: string }) {
  const { t } = useT('wallet');
  return (
    <a
      className="wallet-transaction__link"
      href={href}
      target="_blank"
      rel="noopener noreferrer"
      data-testid={testId}
    >
      {t('transactions.explorer')}
    </a>
  );
}
