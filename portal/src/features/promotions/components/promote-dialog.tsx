import { formatSsl, PROMOTION_MESSAGES, type PromotionStatus } from '@scn/proto';
import { useEffect, useState } from 'react';
import { Banner } from '../../../components/ui/banner';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { ApiError } from '../../../lib/api-client';
import { newIdempotencyKey } from '../../../lib/idempotency-key';
import { getPromotion } from '../api/get-promotion';
import { promoteServer } from '../api/promote';
import { formatExpiry, planSummary, promoteProblem } from '../promotion-rules';
import '../promotions.css';

export interface PromoteDialogProps {
  /** The server to promote (one of the operator's own); null: closed. */
  server: { id: string; name: string } | null;
  onClose: () => void;
  /** After a promotion was paid (the wallet and the lists refresh). */
  onPromoted?: () => void;
  /** spec 01 §2 'Add SSL to Balance': the node wallet's deposit view. */
  onAddBalance: () => void;
}

type Load =
  | { state: 'loading' }
  | { state: 'error'; message: string }
  | { state: 'ready'; status: PromotionStatus };

/**
 * spec 01 §2 "Promote Server": the current promotion, the three plans (those past the 4,000 SSL
 * cap disabled), the node wallet's balance and 'Add SSL to Balance'. The server decides the price
 * and the cap; this only avoids asking for what it would refuse.
 */
export function PromoteDialog({ server, onClose, onPromoted, onAddBalance }: PromoteDialogProps) {
  return (
    <Dialog
      open={server !== null}
      onClose={onClose}
      title="Promote Server"
      description={server ? `List ${server.name} first in the Server Market.` : undefined}
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
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  const [planId, setPlanId] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  // One key per attempt at a plan: a retried click of the same attempt pays once.
  const [key, setKey] = useState(newIdempotencyKey);

  useEffect(() => {
    const controller = new AbortController();
    getPromotion(serverId, controller.signal).then(
      (status) => setLoad({ state: 'ready', status }),
      (reason: unknown) => {
        if (controller.signal.aborted) return;
        setLoad({
          state: 'error',
          message: reason instanceof Error ? reason.message : PROMOTION_MESSAGES.fetchFailed,
        });
      },
    );
    return () => controller.abort();
  }, [serverId]);

  if (load.state === 'loading') {
    return (
      <div className="page-loading" role="status" aria-live="polite">
        <span className="spinner" aria-hidden="true" />
        <span>Loading promotion status...</span>
      </div>
    );
  }
  if (load.state === 'error') {
    return (
      <Banner tone="error" data-testid="promote-error">
        {load.message}
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

  const submit = async () => {
    const problem = promoteProblem(plan, status.balance, status.amountPaidMicro);
    if (problem || !plan) {
      setError(problem ?? PROMOTION_MESSAGES.selectPlan);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const answer = await promoteServer(serverId, { days: plan.days, cost: plan.cost }, key);
      setLoad({ state: 'ready', status: answer });
      setDone(answer.message);
      setPlanId(null);
      setKey(newIdempotencyKey());
      onPromoted?.();
    } catch (reason) {
      // spec 01 §8: the server's message as-is (insufficient_balance: 'Not enough SSL tokens...').
      setError(reason instanceof ApiError ? reason.message : PROMOTION_MESSAGES.failed);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="stack promote">
      <dl className="promote__status" data-testid="promote-status">
        <div>
          <dt>Status</dt>
          <dd data-testid="promote-active">
            {status.active && status.expiresAt
              ? `Promoted until ${formatExpiry(status.expiresAt)}`
              : 'Not promoted'}
          </dd>
        </div>
        <div>
          <dt>Spent on promotions</dt>
          <dd data-testid="promote-spent">
            {formatSsl(status.amountPaidMicro)} of {status.capSsl.toLocaleString('en-US')} SSL
          </dd>
        </div>
        <div>
          <dt>SSL balance</dt>
          <dd data-testid="promote-balance">{formatSsl(status.balanceMicro)} SSL</dd>
        </div>
      </dl>

      <div className="choice-list" role="radiogroup" aria-label="Promotion plan">
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
              <span className="choice__title">{candidate.name}</span>
              <span className="small muted">
                {planSummary(candidate)}
                {!candidate.allowed &&
                  ` · over the ${status.capSsl.toLocaleString('en-US')} SSL cap`}
              </span>
            </span>
          </button>
        ))}
      </div>

      {status.active && (
        <p className="small muted">An upgrade adds its days to the current promotion.</p>
      )}
      {error && (
        <Banner tone="error" data-testid="promote-error">
          {error}
        </Banner>
      )}
      {done && (
        <Banner tone="success" data-testid="promote-done">
          {done}
        </Banner>
      )}

      <div className="dialog__actions">
        <Button variant="ghost" onClick={onAddBalance} data-testid="promote-add-balance">
          Add SSL to Balance
        </Button>
        <Button variant="secondary" onClick={onClose} disabled={busy}>
          {done ? 'Close' : 'Cancel'}
        </Button>
        <Button
          variant="primary"
          onClick={() => void submit()}
          disabled={busy}
          data-testid="promote-submit"
        >
          {busy ? 'Promoting...' : 'Promote Server'}
        </Button>
      </div>
    </div>
  );
}
