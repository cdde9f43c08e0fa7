import { formatMicroSsl } from '../../../lib/money';
import {
  PROMOTION_CAP_SSL,
  type PromotionPlanStatus,
  type PromotionStatus,
  sslToMicro,
  toMicro,
} from '@scn/proto';
import { Suspense, useEffect, useState } from 'react';
import { Banner } from '../../../components/ui/banner';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { Dialog } from '../../../components/ui/dialog';
import { ApiError } from '../../../lib/api-client';
import { formatDate } from '../../../lib/i18n/format';
import { useT } from '../../../lib/i18n/i18n';
import { newIdempotencyKey } from '../../../lib/idempotency-key';
import { getPromotion } from '../api/get-promotion';
import { promoteServer } from '../api/promote';
import { isKnownPlan, type PromoteProblem, promoteProblem } from '../promotion-rules';
import '../promotions.css';
import { messageOf } from '../../../lib/error-message';

export interface PromoteDialogProps {
  /** The server to promote (one of the operator's own); null: closed. */
  server: { id: string; name: string } | null;
  onClose: () => void;
  /** After a promotion was paid (the wallet and the lists refresh). */
  onPromoted?: () => void;
  /** docs/product/screens.md#the-shell-and-the-market-screens 'Add SSL to Balance': the node wallet's deposit view. */
  onAddBalance: () => void;
}

type Load =
  | { state: 'loading' }
  /** `message` null: no message of the server's (the page says it could not load). */
  | { state: 'error'; message: string | null }
  | { state: 'ready'; status: PromotionStatus };

/**
 * docs/product/screens.md#the-shell-and-the-market-screens "Promote Server": the current promotion, the three plans (those past the 4,000 SSL
 * cap disabled), the node wallet's balance and 'Add SSL to Balance'. Paying is confirmed first,
 * stating the cost, the balance after it and the cap. The server decides the price and the cap;
 * this only avoids asking for what it would refuse.
 */
export function PromoteDialog(props: PromoteDialogProps) {
  if (props.server === null) return null;
  // Its words wait for the `earn` catalogue here, so the page behind never does.
  return (
    <Suspense fallback={null}>
      <PromoteDialogOpen {...props} />
    </Suspense>
  );
}

function PromoteDialogOpen({ server, onClose, onPromoted, onAddBalance }: PromoteDialogProps) {
  const { t } = useT('earn');
  return (
    <Dialog
      open={server !== null}
      onClose={onClose}
      title={t('promotions.title')}
      description={server ? t('promotions.description', { name: server.name }) : undefined}
      data-testid="promote-dialog"
    >
      {server && (
        <PromoteBody
          key={server.id}
          serverId={server.id}
          onClose={onClose}
          onPromoted={onPromoted}
          onAddBalance={onAddBalance}
        />
      )}
    </Dialog>
  );
}

function PromoteBody({
  serverId,
  onClose,
  onPromoted,
  onAddBalance,
}: Omit<PromoteDialogProps, 'server'> & { serverId: string }) {
  const { t, locale } = useT('earn');
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  const [planId, setPlanId] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<Done | null>(null);
  // One key per attempt at a plan: a retried click of the same attempt pays once.
  const [key, setKey] = useState(newIdempotencyKey);

  useEffect(() => {
    const controller = new AbortController();
    getPromotion(serverId, controller.signal).then(
      (status) => setLoad({ state: 'ready', status }),
      (reason: unknown) => {
        if (controller.signal.aborted) return;
        setLoad({ state: 'error', message: messageOf(reason) });
      },
    );
    return () => controller.abort();
  }, [serverId]);

  if (load.state === 'loading') {
    return (
      <div className="page-loading" role="status" aria-live="polite">
        <span className="spinner" aria-hidden="true" />
        <span>{t('promotions.loading')}</span>
      </div>
    );
  }
  if (load.state === 'error') {
    return (
      <Banner tone="error" data-testid="promote-error">
        {load.message ?? t('promotions.fetchFailed')}
      </Banner>
    );
  }

  const { status } = load;
  const plan = status.plans.find((candidate) => candidate.id === planId) ?? null;

  const choose = (id: string) => {
    setPlanId(id);
    setError(null);
    setKey(newIdempotencyKey());
  };

  const problemText = (problem: PromoteProblem) =>
    problem === 'capExceeded'
      ? t('promotions.problem.capExceeded', {
          cap: formatMicroSsl(sslToMicro(PROMOTION_CAP_SSL), locale),
          paid: formatMicroSsl(status.amountPaidMicro, locale, { decimals: 'cents' }),
        })
      : t(`promotions.problem.${problem}`);

  /** Promote Server: the page's own checks, then the confirmation. */
  const review = () => {
    const problem = promoteProblem(plan, status.balance);
    if (problem || !plan) {
      setError(problemText(problem ?? 'selectPlan'));
      return;
    }
    setError(null);
    setConfirming(true);
  };

  const submit = async () => {
    if (!plan) return;
    setBusy(true);
    setError(null);
    try {
      const answer = await promoteServer(serverId, { days: plan.days, cost: plan.cost }, key);
      setLoad({ state: 'ready', status: answer });
      setDone({ plan, expiresAt: answer.expiresAt, message: answer.message });
      setPlanId(null);
      setKey(newIdempotencyKey());
      onPromoted?.();
    } catch (reason) {
      // docs/product/messages.md#market-and-account-messages: the server's message as-is (insufficient_balance: 'Not enough SSL tokens...').
      setError(reason instanceof ApiError ? reason.message : t('promotions.failed'));
    } finally {
      setBusy(false);
    }
  };

  const ssl = (micro: string | bigint) => formatMicroSsl(micro, locale, { decimals: 'cents' });
  const cap = formatMicroSsl(sslToMicro(PROMOTION_CAP_SSL), locale);

  return (
    <div className="stack promote">
      <PromoteStatusList status={status} />

      <div className="choice-list" role="radiogroup" aria-label={t('promotions.planGroup')}>
        {status.plans.map((candidate) => (
          <button
            key={candidate.id}
            type="button"
            role="radio"
            aria-checked={candidate.id === planId}
            className={`choice promote__plan${candidate.id === planId ? ' promote__plan--chosen' : ''}`}
            disabled={!candidate.allowed || busy}
            onClick={() => choose(candidate.id)}
            data-testid={`promote-plan-${candidate.id}`}
          >
            <span className="choice__text">
              <span className="choice__title">
                <PlanName plan={candidate} />
              </span>
              <span className="small muted">
                {t('promotions.planSummary', {
                  days: candidate.days,
                  cost: ssl(candidate.costMicro),
                })}
                {!candidate.allowed && ` · ${t('promotions.overCap', { cap })}`}
              </span>
            </span>
          </button>
        ))}
      </div>

      <p className="small muted" data-testid="promote-cap-note">
        {t('promotions.capNote', { cap })}
        {status.active && ` ${t('promotions.upgradeNote')}`}
      </p>
      {error && (
        <Banner tone="error" data-testid="promote-error">
          {error}
        </Banner>
      )}
      {done && (
        <Banner tone="success" data-testid="promote-done">
          <DoneText done={done} />
        </Banner>
      )}

      <div className="dialog__actions">
        <Button variant="ghost" onClick={onAddBalance} data-testid="promote-add-balance">
          {t('promotions.addBalance')}
        </Button>
        <Button variant="secondary" onClick={onClose} disabled={busy}>
          {done ? t('common.close') : t('common.cancel')}
        </Button>
        <Button variant="primary" onClick={review} disabled={busy} data-testid="promote-submit">
          {busy ? t('promotions.promoting') : t('promotions.submit')}
        </Button>
      </div>

      {plan && (
        <PromoteConfirm
          open={confirming}
          plan={plan}
          status={status}
          onClose={() => setConfirming(false)}
          onConfirm={submit}
        />
      )}
    </div>
  );
}

/** A paid promotion: the plan and until when (the server's message if it named no end). */
interface Done {
  plan: PromotionPlanStatus;
  expiresAt: string | null;
  message: string;
}

function DoneText({ done }: { done: Done }) {
  const { t, locale } = useT('earn');
  if (!done.expiresAt) return <>{done.message}</>;
  return (
    <>
      {t('promotions.done', {
        plan: isKnownPlan(done.plan.id) ? t(`promotions.plan.${done.plan.id}`) : done.plan.name,
        date: formatDate(done.expiresAt, locale, { dateStyle: 'medium', timeStyle: 'short' }),
      })}
    </>
  );
}

function PlanName({ plan }: { plan: PromotionPlanStatus }) {
  const { t } = useT('earn');
  return <>{isKnownPlan(plan.id) ? t(`promotions.plan.${plan.id}`) : plan.name}</>;
}

/** Whether the server is promoted, what its promotions have cost against the cap, the balance. */
function PromoteStatusList({ status }: { status: PromotionStatus }) {
  const { t, locale } = useT('earn');
  const ssl = (micro: string | bigint) => formatMicroSsl(micro, locale, { decimals: 'cents' });
  const cap = formatMicroSsl(sslToMicro(PROMOTION_CAP_SSL), locale);
  return (
    <dl className="promote__status" data-testid="promote-status">
      <div>
        <dt>{t('promotions.status.label')}</dt>
        <dd data-testid="promote-active">
          {status.active && status.expiresAt
            ? t('promotions.status.until', {
                date: formatDate(status.expiresAt, locale, {
                  dateStyle: 'medium',
                  timeStyle: 'short',
                }),
              })
            : t('promotions.status.none')}
        </dd>
      </div>
      <div>
        <dt>{t('promotions.spent.label')}</dt>
        <dd data-testid="promote-spent">
          {t('promotions.spent.value', { paid: ssl(status.amountPaidMicro), cap })}
        </dd>
      </div>
      <div>
        <dt>{t('promotions.balance')}</dt>
        <dd data-testid="promote-balance">{ssl(status.balanceMicro)}</dd>
      </div>
    </dl>
  );
}

/** The confirmation before paying: the plan, its cost, the balance after it and the cap. */
function PromoteConfirm({
  open,
  plan,
  status,
  onClose,
  onConfirm,
}: {
  open: boolean;
  plan: PromotionPlanStatus;
  status: PromotionStatus;
  onClose: () => void;
  onConfirm: () => Promise<void>;
}) {
  const { t, locale } = useT('earn');
  const ssl = (micro: string | bigint) => formatMicroSsl(micro, locale, { decimals: 'cents' });
  const cap = formatMicroSsl(sslToMicro(PROMOTION_CAP_SSL), locale);
  return (
    <ConfirmDialog
      open={open}
      title={t('promotions.confirm.title')}
      confirmLabel={t('promotions.confirm.action', { cost: ssl(plan.costMicro) })}
      busyLabel={t('promotions.promoting')}
      fallbackError={t('promotions.failed')}
      onClose={onClose}
      onConfirm={onConfirm}
      data-testid="promote-confirm-dialog"
    >
      <p data-testid="promote-confirm-text">
        {t('promotions.confirm.body', {
          plan: isKnownPlan(plan.id) ? t(`promotions.plan.${plan.id}`) : plan.name,
          days: plan.days,
          cost: ssl(plan.costMicro),
          balance: ssl(toMicro(status.balanceMicro) - toMicro(plan.costMicro)),
        })}
      </p>
      <p className="small muted" data-testid="promote-confirm-cap">
        {t('promotions.confirm.cap', {
          cap,
          paid: ssl(toMicro(status.amountPaidMicro) + toMicro(plan.costMicro)),
        })}
      </p>
      <p className="small muted">{t('promotions.confirm.noRefund')}</p>
    </ConfirmDialog>
  );
}
