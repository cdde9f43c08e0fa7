import { useT } from '../../../lib/i18n/i18n';
import { formatMicroSsl } from '../../../lib/money';

/** An amount of SSL rounded for reading; its exact micro-SSL in `value` and the title. */
export function Amount({ micro, testId }: { micro: string; testId?: string }) {
  const { locale } = useT('earn');
  return (
    <data value={micro} title={formatMicroSsl(micro, locale)} data-testid={testId}>
      {formatMicroSsl(micro, locale, { decimals: 'cents' })}
    </data>
  );
}
