import type { NodeCertificate } from '@scn/proto';
import { useT } from '../../../lib/i18n/i18n';
import { certificateView } from '../server-format';

/**
 * Where the node's TLS certificate comes from, as the node last reported it: publicly trusted
 * (every app connects), the operator's own, or the agent's self-signed fallback, which only apps
 * that read the link's pin accept, with the node's reason and how to get a trusted one.
 */
export function ServerCertificate({ certificate }: { certificate: NodeCertificate }) {
  const { t, locale } = useT('node');
  const view = certificateView(certificate, t, locale);
  return (
    <div
      className="node-server__certificate small"
      data-testid="server-certificate"
      data-source={certificate.source}
    >
      <p className={view.tone === 'neutral' ? undefined : `node-tone node-tone--${view.tone}`}>
        {view.text}
      </p>
      {view.hint && (
        <p className="muted" data-testid="server-certificate-hint">
          {view.hint}
        </p>
      )}
      {view.command && (
        <code className="node-server__command" dir="ltr" data-testid="server-certificate-command">
          {view.command}
        </code>
      )}
    </div>
  );
}
