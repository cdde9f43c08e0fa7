import type { NodeServerDetails, NodeTransport } from '@scn/proto';
import { useEffect, useState } from 'react';
import { Trans } from 'react-i18next';
import { Banner } from '../../../components/ui/banner';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { formatNumber } from '../../../lib/i18n/format';
import { useT } from '../../../lib/i18n/i18n';
import { formatDateTime } from '../server-format';
import { changeServerInbound } from '../server-actions';
import '../nodes.css';

/** Each transport's name in the catalogue (NODE_TRANSPORTS of the contract). */
const TRANSPORT_KEYS = {
  'reality/tcp': 'transport.option.realityTcp',
  'tls/tcp': 'transport.option.tlsTcp',
  'tls/ws': 'transport.option.tlsWs',
  'tls/grpc': 'transport.option.tlsGrpc',
} as const satisfies Record<NodeTransport, string>;

interface Props {
  ownerUuid: string;
  server: NodeServerDetails;
  onChanged: (server: NodeServerDetails) => void;
}

/**
 * Node Configuration: the transport the node serves, among those its core offers,
 * and the emergency port regeneration, each after a confirmation that says what clients lose.
 * Each change is pushed to the node at once; links and feeds follow once the node reports
 * serving it (shown as pending until then).
 */
export function NodeTransport({ ownerUuid, server, onChanged }: Props) {
  const { t, locale } = useT('node');
  const plan = server.plan;
  const [confirmingTransport, setConfirmingTransport] = useState(false);
  const [transport, setTransport] = useState<NodeTransport | ''>(plan?.transport ?? '');
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [result, setResult] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  // The clock as of the last change (or load); moved on when the regeneration wait ends.
  const [now, setNow] = useState(() => Date.now());
  const regenerableMs = plan?.regenerableAt ? Date.parse(plan.regenerableAt) : null;
  useEffect(() => {
    if (regenerableMs === null) return;
    const timer = setTimeout(() => setNow(Date.now()), Math.max(0, regenerableMs - Date.now()));
    return () => clearTimeout(timer);
  }, [regenerableMs]);
  if (!plan) return null;

  /** Sends the change; shows what it did, or throws the control plane's refusal. */
  const apply = async (change: Parameters<typeof changeServerInbound>[2]) => {
    const { server: changed } = await changeServerInbound(ownerUuid, server.id, change);
    onChanged(changed);
    setTransport(changed.plan?.transport ?? '');
    setResult({
      tone: 'success',
      text:
        'transport' in change
          ? t('transport.changed')
          : t('transport.portChanged', { port: String(changed.plan?.port ?? '') }),
    });
    setNow(Date.now());
  };

  const run = async (change: Parameters<typeof changeServerInbound>[2]) => {
    setBusy(true);
    setResult(null);
    try {
      await apply(change);
    } catch (error) {
      setResult({
        tone: 'error',
        text: (error instanceof Error && error.message) || t('transport.failed'),
      });
    } finally {
      setBusy(false);
      setConfirming(false);
      setNow(Date.now());
    }
  };

  const waiting = regenerableMs !== null && regenerableMs > now;

  return (
    <section
      aria-labelledby="node-config-transport"
      className="node-config__transport"
      data-testid="node-config-transport"
    >
      <h3 id="node-config-transport" className="node-config__heading">
        {t('transport.heading')}
      </h3>
      {server.inboundPending && (
        <p className="small node-tone node-tone--warning" data-testid="node-config-pending">
          {t('transport.pending', { revision: formatNumber(Number(plan.revision), locale) })}
        </p>
      )}
      <div className="field">
        <label className="field__label" htmlFor="node-config-transport-select">
          {t('transport.label')}
        </label>
        <div className="node-config__row">
          <select
            id="node-config-transport-select"
            className="input"
            value={transport}
            disabled={busy}
            onChange={(event) => {
              setTransport(event.target.value as NodeTransport);
              setResult(null);
            }}
          >
            {plan.transport === null && <option value="">{t('transport.notSet')}</option>}
            {plan.transports.map((option) => (
              <option key={option} value={option}>
                {t(TRANSPORT_KEYS[option])}
              </option>
            ))}
          </select>
          <Button
            variant="secondary"
            disabled={busy || !transport || transport === plan.transport}
            onClick={() => transport && setConfirmingTransport(true)}
            data-testid="node-config-transport-apply"
          >
            {t('transport.apply')}
          </Button>
        </div>
        <p className="field__hint">
          {plan.core === 'xray' ? t('transport.hintXray') : t('transport.hintV2ray')}
        </p>
      </div>
      <div className="field">
        <span className="field__label">{t('transport.port')}</span>
        <p data-testid="node-config-plan-port">
          <Trans
            ns="node"
            i18nKey="transport.portValue"
            values={{ port: plan.port === null ? t('transport.portNone') : String(plan.port) }}
            components={{ code: <code dir="ltr" /> }}
          />
        </p>
        {confirming ? (
          <RegenerateConfirm
            busy={busy}
            onCancel={() => setConfirming(false)}
            onConfirm={() => void run({ regeneratePort: true })}
          />
        ) : (
          <Button
            variant="secondary"
            disabled={busy || waiting}
            onClick={() => setConfirming(true)}
            data-testid="node-config-regenerate"
          >
            {t('transport.regenerate')}
          </Button>
        )}
        {waiting && plan.regenerableAt && (
          <p className="field__hint">
            {t('transport.regenerableAt', { date: formatDateTime(plan.regenerableAt, locale) })}
          </p>
        )}
      </div>
      {result && (
        <Banner tone={result.tone} data-testid={`node-config-transport-${result.tone}`}>
          {result.text}
        </Banner>
      )}
      <TransportConfirm
        open={confirmingTransport}
        name={server.name}
        from={plan.transport}
        to={transport || null}
        onConfirm={async () => {
          if (!transport) return;
          setResult(null);
          await apply({ transport });
        }}
        onClose={() => setConfirmingTransport(false)}
      />
    </section>
  );
}

/**
 * A transport change changes every client's link, so it is confirmed first, saying
 * so; a refusal shows in the dialog, which stays open.
 */
function TransportConfirm({
  open,
  name,
  from,
  to,
  onConfirm,
  onClose,
}: {
  open: boolean;
  name: string;
  from: NodeTransport | null;
  to: NodeTransport | null;
  onConfirm: () => Promise<void>;
  onClose: () => void;
}) {
  const { t } = useT('node');
  return (
    <ConfirmDialog
      open={open}
      title={t('transport.confirm.title')}
      confirmLabel={t('transport.confirm.action')}
      busyLabel={t('transport.confirm.busy')}
      variant="danger"
      onConfirm={onConfirm}
      onClose={onClose}
      fallbackError={t('transport.failed')}
      data-testid="transport-confirm-dialog"
    >
      <p data-testid="transport-confirm-consequence">
        <Trans
          ns="node"
          i18nKey="transport.confirm.body"
          values={{
            name,
            from: from ? t(TRANSPORT_KEYS[from]) : t('transport.notSet'),
            to: to ? t(TRANSPORT_KEYS[to]) : '',
          }}
          components={{ strong: <strong /> }}
        />
      </p>
      <p>{t('transport.confirm.clients')}</p>
    </ConfirmDialog>
  );
}

/** The emergency port regeneration's confirm step, in place: clients lose the server until they refresh. */
function RegenerateConfirm({
  busy,
  onCancel,
  onConfirm,
}: {
  busy: boolean;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  const { t } = useT('node');
  return (
    <Banner tone="warning" data-testid="node-config-regenerate-confirm">
      <p>{t('transport.regenerateConfirm')}</p>
      <div className="dialog__actions">
        <Button variant="secondary" disabled={busy} onClick={onCancel}>
          {t('transport.cancel')}
        </Button>
        <Button
          variant="danger"
          disabled={busy}
          onClick={onConfirm}
          data-testid="node-config-regenerate-yes"
        >
          {busy ? t('transport.regenerating') : t('transport.regenerateYes')}
        </Button>
      </div>
    </Banner>
  );
}
