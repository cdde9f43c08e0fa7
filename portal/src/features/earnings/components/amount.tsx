import { formatSslAmount } from '../../../lib/i18n/format';
import { useT } from '../../../lib/i18n/i18n';

/** An amount of SSL rounded for reading; its exact micro-SSL in `value` and the title. */
export function Amount({ micro, testId }: { micro: string; testId?: string }) {
  const { locale } = useT('earn');
  return (
    <data value={micro} title={formatSslAmount(micro, locale, 'exact')} data-testid={testId}>
      {formatSslAmount(micro, locale, 'cents')}
    </data>
  );
}
