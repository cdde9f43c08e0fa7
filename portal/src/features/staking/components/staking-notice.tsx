import { Banner } from '../../../components/ui/banner';
import { useT } from '../../../lib/i18n/i18n';
import type { StakingState } from '../staking-actions';

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
  const { t } = useT('earn');
  return (
    <Banner tone={notice.tone} data-testid={testId}>
      {notice.local ? t(`staking.error.${notice.local}`) : notice.text}
    </Banner>
  );
}
