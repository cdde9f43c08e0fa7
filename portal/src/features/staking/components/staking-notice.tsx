import { Banner } from '../../../components/ui/banner';
import { formatMicroSsl } from '../../../lib/money';

import { useT } from '../../../lib/i18n/i18n';
import type { StakingDone, StakingState } from '../staking-actions';

/**
 * The answer of the last staking action: the page's own check in the reader's language, or the
 * server's message as it came (translated by its code once the API's messages are).
 */
export function StakingNotice({
  notice,
  testId,
}: {
  notice: NonNullable<StakingState['notice']>;
  testId: string;
}) {
  const { t, locale } = useT('earn');
  const done = (value: StakingDone) =>
    value.kind === 'autoSaved'
      ? value.percent === 0
        ? t('staking.done.autoOff')
        : t('staking.done.autoSaved', { percent: value.percent })
      : t(`staking.done.${value.kind}`, {
          amount: formatMicroSsl(value.amountMicro, locale, { decimals: 'cents' }),
        });
  return (
    <Banner tone={notice.tone} data-testid={testId}>
      {notice.local
        ? t(`staking.error.${notice.local}`)
        : notice.done
          ? done(notice.done)
          : notice.text}
    </Banner>
  );
}
