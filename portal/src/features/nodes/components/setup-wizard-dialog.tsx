import {
  ECONOMICS,
  PRICING,
  SERVER_NAME_MAX,
  SSL_USD_PRICE,
  VPS_TIERS,
  type EnrollmentTokenResponse,
  type VpsTier,
  type VpsTierId,
  serverNameSchema,
  tierMonthlyIncome,
} from '@scn/proto';
import { useState } from 'react';
import { Trans } from 'react-i18next';
import { Banner } from '../../../components/ui/banner';
import { Button } from '../../../components/ui/button';
import { CopyButton } from '../../../components/ui/copy-button';
import { Dialog } from '../../../components/ui/dialog';
import { formatNumber } from '../../../lib/i18n/format';
import { useT } from '../../../lib/i18n/i18n';
import type { Locale } from '../../../lib/i18n/locale';
import { createEnrollmentToken } from '../api/create-enrollment-token';
import { formatDateTime, type NodeT, tierName } from '../server-format';
import '../nodes.css';

export interface SetupWizardDialogProps {
  open: boolean;
  onClose: () => void;
  /** The number in the suggested name of the new server ("VPS node 2" for a second server). */
  suggestedName: number;
}

/**
 * docs/product/screens.md#dashboards-and-information-pages Node setup wizard: step 1 names the server and chooses a VPS tier (docs/product/constants.md#market-prices-and-limits),
 * each with its monthly income as the earnings statement computes it, and states the terms of
 * the money before anything is committed (rewards frozen, the withdrawal fee); step 2 shows the
 * install command with a fresh one-time enrollment token.
 */
export function SetupWizardDialog({ open, onClose, suggestedName }: SetupWizardDialogProps) {
  const { t } = useT('node');
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={t('wizard.title')}
      description={t('wizard.description')}
      size="lg"
      data-testid="setup-wizard"
    >
      <SetupWizardBody onClose={onClose} suggestedName={suggestedName} />
    </Dialog>
  );
}

/** SSL in the reader's digits, the unit in Latin letters (docs/i18n.md). */
function ssl(amount: number, locale: Locale): string {
  return formatNumber(amount, locale);
}

/** A tier's monthly income in US dollars at the reference price (docs/product/overview.md#what-scn-is). */
function usd(totalSsl: number, locale: Locale): string {
  return formatNumber((totalSsl * SSL_USD_PRICE.numerator) / SSL_USD_PRICE.denominator, locale, {
    style: 'currency',
    currency: 'USD',
  });
}

function TierCard({
  tier,
  selected,
  onSelect,
  t,
  locale,
}: {
  tier: VpsTier;
  selected: boolean;
  onSelect: () => void;
  t: NodeT;
  locale: Locale;
}) {
  const income = tierMonthlyIncome(tier);
  return (
    <label
      className={`tier-card${selected ? ' tier-card--selected' : ''}`}
      data-testid={`tier-${tier.id}`}
    >
      <input
        type="radio"
        name="vps-tier"
        value={tier.id}
        checked={selected}
        onChange={onSelect}
        className="tier-card__input"
      />
      <span className="tier-card__head">
        <span className="tier-card__name">{tierName(tier, t, locale)}</span>
        {tier.recommended && (
          <span className="badge badge--info">{t('wizard.tier.recommended')}</span>
        )}
      </span>
      <span className="tier-card__specs small muted">
        {t('wizard.tier.specs', {
          vcpu: formatNumber(tier.vcpu, locale),
          ram: formatNumber(tier.ramGb, locale),
          ssd: formatNumber(tier.ssdGb, locale),
        })}
      </span>
      <span className="tier-card__clients small">
        {t('wizard.tier.clients', { count: tier.maxClients })}
      </span>
      <span className="tier-card__earnings" data-testid="tier-income">
        {t('wizard.tier.income', { total: ssl(income.totalSsl, locale) })}
        <span className="small muted"> ({usd(income.totalSsl, locale)})</span>
      </span>
      <span className="tier-card__breakdown small muted" data-testid="tier-income-breakdown">
        {t('wizard.tier.breakdown', {
          base: ssl(income.baseSsl, locale),
          clients: formatNumber(income.maxClients, locale),
          perClient: ssl(income.perClientSsl, locale),
          clientsTotal: ssl(income.clientsSsl, locale),
          reliability: formatNumber(1, locale, { style: 'percent' }),
        })}
      </span>
    </label>
  );
}

/** What the operator agrees to about money, before a script is generated. */
function MoneyTerms({ t, locale }: { t: NodeT; locale: Locale }) {
  const fee = ECONOMICS.withdrawalProtocolFeePercent;
  return (
    <section
      className="setup-wizard__terms"
      aria-labelledby="setup-wizard-terms-title"
      data-testid="setup-wizard-terms"
    >
      <h3 id="setup-wizard-terms-title" className="setup-wizard__terms-title">
        {t('wizard.terms.title')}
      </h3>
      <ul className="setup-wizard__terms-list small">
        <li data-testid="setup-wizard-income-terms">
          <Trans
            ns="node"
            i18nKey="wizard.terms.income"
            values={{
              perClient: ssl(PRICING.operatorRewardSsl, locale),
              threshold: formatNumber(ECONOMICS.hideBelowReliabilityPercent / 100, locale, {
                style: 'percent',
              }),
            }}
            components={{ strong: <strong /> }}
          />
        </li>
        <li data-testid="setup-wizard-freeze">
          <Trans
            ns="node"
            i18nKey="wizard.terms.freeze"
            values={{ days: formatNumber(PRICING.operatorRewardFrozenDays, locale) }}
            components={{ strong: <strong /> }}
          />
        </li>
        <li data-testid="setup-wizard-fee">
          <Trans
            ns="node"
            i18nKey="wizard.terms.fee"
            values={{
              fee: formatNumber(fee / 100, locale, { style: 'percent' }),
              gross: ssl(100, locale),
              net: ssl(100 - fee, locale),
            }}
            components={{ strong: <strong /> }}
          />
        </li>
      </ul>
    </section>
  );
}

function SetupWizardBody({
  onClose,
  suggestedName,
}: {
  onClose: () => void;
  suggestedName: number;
}) {
  const { t, locale } = useT('node');
  const [tier, setTier] = useState<VpsTierId | null>(null);
  const [name, setName] = useState(() =>
    t('wizard.name.default', { number: formatNumber(suggestedName, locale) }),
  );
  const [nameError, setNameError] = useState<string | null>(null);
  const [issued, setIssued] = useState<EnrollmentTokenResponse | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const generate = async () => {
    // docs/product/input-rules.md#dashboard-input: the button is disabled without a tier; this only guards a forced click.
    if (!tier) return setError(t('wizard.tierRequired'));
    if (!serverNameSchema.safeParse(name).success) {
      return setNameError(
        name.trim()
          ? t('wizard.name.invalid', { max: SERVER_NAME_MAX })
          : t('wizard.name.required'),
      );
    }
    setBusy(true);
    setError(null);
    try {
      setIssued(await createEnrollmentToken(tier, name.trim()));
    } catch (failure) {
      setError((failure instanceof Error && failure.message) || t('wizard.generateFailed'));
    } finally {
      setBusy(false);
    }
  };

  if (issued) {
    const issuedTier = VPS_TIERS.find((candidate) => candidate.id === issued.tier);
    return (
      <div className="setup-wizard" data-testid="setup-wizard-script">
        <p className="setup-wizard__step small muted">{t('wizard.step2')}</p>
        <p>
          <Trans ns="node" i18nKey="wizard.runAsRoot" components={{ strong: <strong /> }} />
        </p>
        <div className="setup-wizard__command" dir="ltr">
          <pre>
            <code data-testid="install-command">{issued.installCommand}</code>
          </pre>
          <CopyButton text={issued.installCommand} data-testid="copy-install-command" />
        </div>
        <p className="small muted" data-testid="token-expiry">
          <Trans
            ns="node"
            i18nKey="wizard.tokenExpiry"
            values={{
              name: name.trim(),
              tier: issuedTier ? tierName(issuedTier, t, locale) : issued.tier,
              date: formatDateTime(issued.expiresAt, locale),
            }}
            components={{ bdi: <bdi /> }}
          />
        </p>
        <ul className="check-list setup-wizard__notes" data-testid="setup-notes">
          <li>{t('wizard.notes.duration')}</li>
          <li>{t('wizard.notes.appears')}</li>
          <li>{t('wizard.notes.os')}</li>
          <li>{t('wizard.notes.root')}</li>
          <li>{t('wizard.notes.ports')}</li>
        </ul>
        <div className="dialog__actions">
          <Button variant="secondary" onClick={() => setIssued(null)}>
            {t('wizard.back')}
          </Button>
          <Button variant="primary" onClick={onClose}>
            {t('wizard.done')}
          </Button>
        </div>
      </div>
    );
  }

  return (
    <div className="setup-wizard" data-testid="setup-wizard-tiers">
      <p className="setup-wizard__step small muted">{t('wizard.step1')}</p>
      <Banner tone="warning">{t('wizard.freshVps')}</Banner>
      <div className="field">
        <label className="field__label" htmlFor="setup-wizard-name">
          {t('wizard.name.label')}
        </label>
        <input
          id="setup-wizard-name"
          className="input"
          maxLength={SERVER_NAME_MAX}
          value={name}
          aria-invalid={nameError ? true : undefined}
          aria-describedby="setup-wizard-name-hint"
          onChange={(event) => {
            setName(event.target.value);
            setNameError(null);
          }}
          data-testid="setup-wizard-name"
        />
        <p
          id="setup-wizard-name-hint"
          className={nameError ? 'field__hint field__hint--error' : 'field__hint'}
          data-testid={nameError ? 'setup-wizard-name-error' : undefined}
        >
          {nameError ?? t('wizard.name.hint')}
        </p>
      </div>
      <fieldset className="tier-picker">
        <legend className="sr-only">{t('wizard.tier.legend')}</legend>
        {VPS_TIERS.map((option) => (
          <TierCard
            key={option.id}
            tier={option}
            selected={tier === option.id}
            onSelect={() => setTier(option.id)}
            t={t}
            locale={locale}
          />
        ))}
      </fieldset>
      <MoneyTerms t={t} locale={locale} />
      {error && (
        <Banner tone="error" data-testid="setup-wizard-error">
          {error}
        </Banner>
      )}
      <div className="dialog__actions">
        <Button variant="secondary" onClick={onClose}>
          {t('wizard.cancel')}
        </Button>
        <Button
          variant="primary"
          disabled={tier === null || busy}
          onClick={() => void generate()}
          data-testid="generate-setup-script"
        >
          {busy ? t('wizard.generating') : t('wizard.generate')}
        </Button>
      </div>
    </div>
  );
}
