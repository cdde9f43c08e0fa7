import { ECONOMICS, PRICING, type UserType } from '@scn/proto';
import type { ReactNode } from 'react';
import { Dialog } from '../../../components/ui/dialog';
import { formatNumber } from '../../../lib/i18n/format';
import { useT } from '../../../lib/i18n/i18n';
import { chooseUserType, closeAuth, useAuthFlow } from '../store';

interface Option {
  type: UserType;
  titleKey: 'auth.accountType.client' | 'auth.accountType.node';
  descriptionKey: 'auth.chooser.clientText' | 'auth.chooser.nodeText';
  icon: ReactNode;
}

/** docs/product/screens.md#the-shell-and-the-market-screens "Account-type chooser". */
const OPTIONS: Option[] = [
  {
    type: 'client',
    titleKey: 'auth.accountType.client',
    descriptionKey: 'auth.chooser.clientText',
    icon: (
      <svg viewBox="0 0 24 24" width="28" height="28" aria-hidden="true">
        <rect
          x="3"
          y="4"
          width="18"
          height="12"
          rx="2"
          fill="none"
          stroke="currentColor"
          strokeWidth="1.7"
        />
        <path d="M8 20h8M12 16v4" stroke="currentColor" strokeWidth="1.7" strokeLinecap="round" />
        <path
          d="M9 10.5l2 2 4-4"
          fill="none"
          stroke="currentColor"
          strokeWidth="1.7"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
      </svg>
    ),
  },
  {
    type: 'node',
    titleKey: 'auth.accountType.node',
    descriptionKey: 'auth.chooser.nodeText',
    icon: (
      <svg viewBox="0 0 24 24" width="28" height="28" aria-hidden="true">
        <rect
          x="3"
          y="3.5"
          width="18"
          height="7"
          rx="1.5"
          fill="none"
          stroke="currentColor"
          strokeWidth="1.7"
        />
        <rect
          x="3"
          y="13.5"
          width="18"
          height="7"
          rx="1.5"
          fill="none"
          stroke="currentColor"
          strokeWidth="1.7"
        />
        <circle cx="7" cy="7" r="1" fill="currentColor" />
        <circle cx="7" cy="17" r="1" fill="currentColor" />
        <path d="M11 7h6M11 17h6" stroke="currentColor" strokeWidth="1.7" strokeLinecap="round" />
      </svg>
    ),
  },
];

/**
 * What an operator should know before signing up (docs/economics.md): rewards frozen 60 days,
 * a 25% protocol fee on withdrawals. One line, in the chooser's operator option and the
 * operator's sign-up dialog.
 */
export function useOperatorTerms(): string {
  const { t, locale } = useT();
  return t('auth.chooser.nodeTerms', {
    days: PRICING.operatorRewardFrozenDays,
    fee: formatNumber(ECONOMICS.withdrawalProtocolFeePercent / 100, locale, { style: 'percent' }),
  });
}

export function AccountTypeChooser() {
  const { t } = useT();
  const operatorTerms = useOperatorTerms();
  const { view } = useAuthFlow();
  return (
    <Dialog open={view === 'chooser'} onClose={closeAuth} title={t('auth.chooser.title')} size="sm">
      <div className="choice-list">
        {OPTIONS.map((option) => (
          <button
            key={option.type}
            type="button"
            className="choice"
            onClick={() => chooseUserType(option.type)}
            aria-labelledby={`choice-${option.type}-title`}
            aria-describedby={`choice-${option.type}-description`}
            data-testid={`choose-${option.type}`}
          >
            <span className="choice__icon">{option.icon}</span>
            <span className="choice__text">
              <span className="choice__title" id={`choice-${option.type}-title`}>
                {t(option.titleKey)}
              </span>
              <span className="choice__description" id={`choice-${option.type}-description`}>
                {t(option.descriptionKey)}
                {option.type === 'node' ? (
                  <>
                    <br />
                    <span data-testid="choose-node-terms">{operatorTerms}</span>
                  </>
                ) : null}
              </span>
            </span>
            <svg
              className="choice__arrow icon-directional"
              viewBox="0 0 20 20"
              width="18"
              height="18"
              aria-hidden="true"
            >
              <path
                d="M7.5 5l5 5-5 5"
                fill="none"
                stroke="currentColor"
                strokeWidth="1.8"
                strokeLinecap="round"
              />
            </svg>
          </button>
        ))}
      </div>
    </Dialog>
  );
}
