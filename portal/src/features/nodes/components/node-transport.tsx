import { NODE_TRANSPORT_LABELS, type NodeServerDetails, type NodeTransport } from '@scn/proto';
import { useEffect, useState } from 'react';
import { Banner } from '../../../components/ui/banner';
import { Button } from '../../../components/ui/button';
import { formatDateTime } from '../server-format';
import { changeServerInbound } from '../store';
import '../nodes.css';

interface Props {
  ownerUuid: string;
  server: NodeServerDetails;
  onChanged: (server: NodeServerDetails) => void;
}

/**
 * Node Configuration (issue 19 §1): the transport the node serves, among those its core offers,
 * and the emergency port regeneration (a confirm step first). Each change is pushed to the node
 * at once; links and feeds follow once the node reports serving it (shown as pending until then).
 */
export function NodeTransport({ ownerUuid, server, onChanged }: Props) {
  const plan = server.plan;
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

  const run = async (change: Parameters<typeof changeServerInbound>[2]) => {
    setBusy(true);
    setResult(null);
    try {
      const { server: changed, message } = await changeServerInbound(ownerUuid, server.id, change);
      onChanged(changed);
      setTransport(changed.plan?.transport ?? '');
      setResult({ tone: 'success', text: message });
    } catch (error) {
      setResult({ tone: 'error', text: error instanceof Error ? error.message : String(error) });
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
        Transport and port
      </h3>
      {server.inboundPending && (
        <p className="small node-tone node-tone--warning" data-testid="node-config-pending">
          Pending: the node has not yet reported serving plan revision {plan.revision}. Links and
          subscription feeds switch when it does (usually within a minute).
        </p>
      )}
      <div className="field">
        <label className="field__label" htmlFor="node-config-transport-select">
          Transport
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
            {plan.transport === null && <option value="">Not set</option>}
            {plan.transports.map((option) => (
              <option key={option} value={option}>
                {NODE_TRANSPORT_LABELS[option]}
              </option>
            ))}
          </select>
          <Button
            variant="secondary"
            disabled={busy || !transport || transport === plan.transport}
            onClick={() => transport && void run({ transport })}
            data-testid="node-config-transport-apply"
          >
            Apply transport
          </Button>
        </div>
        <p className="field__hint">
          {plan.core === 'xray'
            ? 'Xray: REALITY (the default) looks like a visit to a real website; TLS over WebSocket or gRPC can sit behind a CDN.'
            : 'v2ray: TLS with the certificate the agent made (clients pin it); WebSocket can sit behind a CDN. REALITY and gRPC need Xray.'}
        </p>
      </div>
      <div className="field">
        <span className="field__label">Port</span>
        <p data-testid="node-config-plan-port">
          <code>{plan.port ?? 'not assigned'}</code> (this machine's own, kept across restarts)
        </p>
        {confirming ? (
          <Banner tone="warning" data-testid="node-config-regenerate-confirm">
            <p>
              Regenerate the port only if it is blocked. Clients lose this server until their app
              refreshes the subscription.
            </p>
            <div className="dialog__actions">
              <Button variant="secondary" disabled={busy} onClick={() => setConfirming(false)}>
                Cancel
              </Button>
              <Button
                variant="danger"
                disabled={busy}
                onClick={() => void run({ regeneratePort: true })}
                data-testid="node-config-regenerate-yes"
              >
                {busy ? 'Regenerating...' : 'Yes, regenerate'}
              </Button>
            </div>
          </Banner>
        ) : (
          <Button
            variant="secondary"
            disabled={busy || waiting}
            onClick={() => setConfirming(true)}
            data-testid="node-config-regenerate"
          >
            Regenerate port (emergency)
          </Button>
        )}
        {waiting && plan.regenerableAt && (
          <p className="field__hint">Possible again from {formatDateTime(plan.regenerableAt)}.</p>
        )}
      </div>
      {result && (
        <Banner tone={result.tone} data-testid={`node-config-transport-${result.tone}`}>
          {result.text}
        </Banner>
      )}
    </section>
  );
}
