import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { useT } from '../../../lib/i18n/i18n';
import { saveAutoStake, useStakingActionState } from '../store';
import { StakingFieldForm } from './staking-field-form';

/**
 * docs/product/roles.md#who-may-use-the-dashboards: the share of each payout staked automatically, 0 to 100%. The panel keys it by the
 * saved percent, so a saved value starts the field afresh.
 */
export function AutoStakeForm({ ownerUuid, percent }: { ownerUuid: string; percent: number }) {
  const { t } = useT('earn');
  const staking = useStakingActionState(ownerUuid);
  const [text, setText] = useState(String(percent));

  return (
    <StakingFieldForm
      testId="auto-stake-form"
      noticePrefix="auto-stake"
      label={t('staking.auto.label')}
      input={{
        className: 'input staking-form__percent',
        inputMode: 'numeric',
        value: text,
        onChange: (event) => setText(event.target.value),
        'data-testid': 'auto-stake-percent',
      }}
      actions={
        <Button
          type="submit"
          variant="secondary"
          disabled={staking.busy !== null}
          data-testid="auto-stake-save"
        >
          {staking.busy === 'auto' ? t('staking.auto.saving') : t('staking.auto.save')}
        </Button>
      }
      notice={staking.notice?.action === 'auto' ? staking.notice : null}
      onSubmit={() => void saveAutoStake(ownerUuid, text)}
    />
  );
}
