import { SERVER_NAME_MAX, checkVlessLink } from '@scn/proto';
import { useEffect, useState } from 'react';
import { Banner } from '../../../components/ui/banner';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { formatNumber } from '../../../lib/i18n/format';
import { useT } from '../../../lib/i18n/i18n';
import { uploadServer } from '../api/upload-server';
import { refreshServers, useListedServers } from '../api/get-servers';
import '../nodes.css';

export interface AddServerDialogProps {
  ownerUuid: string;
  open: boolean;
  onClose: () => void;
}

/** The name a VLESS link carries after `#`, if any (what the operator called it elsewhere). */
function linkName(link: string): string {
  const hash = link.indexOf('#');
  if (hash < 0) return '';
  try {
    return decodeURIComponent(link.slice(hash + 1))
      .trim()
      .slice(0, SERVER_NAME_MAX);
  } catch {
    return '';
  }
}

/**
 * docs/product/screens.md#dashboards-and-information-pages, docs/product/input-rules.md#dashboard-input Add New Server: a server run without our agent, given as its VLESS string,
 * and its name (prompted, with a default: the link's own name, else a numbered
 * one). The control plane checks it (public address, a VLESS handshake with its UUID) before it
 * is added and every minute after; it is free and earns nothing. Success closes
 * the dialog after 2 s.
 */
export function AddServerDialog({ ownerUuid, open, onClose }: AddServerDialogProps) {
  const { t, locale } = useT('node');
  const servers = useListedServers(ownerUuid);
  const [vlessString, setVlessString] = useState('');
  const [name, setName] = useState('');
  // Until the operator types a name, the default follows the link.
  const [nameEdited, setNameEdited] = useState(false);
  const defaultName =
    linkName(vlessString) ||
    t('add.defaultName', { number: formatNumber(servers.length + 1, locale) });
  const shownName = nameEdited ? name : defaultName;
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);

  useEffect(() => {
    if (!done) return;
    const timer = window.setTimeout(() => {
      setDone(false);
      setVlessString('');
      setName('');
      setNameEdited(false);
      onClose();
    }, 2000);
    return () => window.clearTimeout(timer);
  }, [done, onClose]);

  const submit = async () => {
    setError(null);
    if (!vlessString.trim()) return setError(t('add.vlessRequired'));
    if (!shownName.trim()) return setError(t('add.nameRequired'));
    const checked = checkVlessLink(vlessString);
    // The server answers only that the link is invalid; the dialog can say what is wrong.
    if (!checked.ok) return setError(t('add.vlessInvalid', { problem: checked.problem }));
    setBusy(true);
    try {
      await uploadServer(ownerUuid, vlessString, shownName.trim());
      setDone(true);
      void refreshServers(ownerUuid);
    } catch (failure) {
      setError((failure instanceof Error && failure.message) || t('add.failed'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog
      open={open}
      onClose={() => !busy && onClose()}
      title={t('add.title')}
      data-testid="add-server-dialog"
    >
      <form
        className="stack"
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <label htmlFor="add-server-vless">{t('add.vlessLabel')}</label>
        <textarea
          id="add-server-vless"
          className="input"
          dir="ltr"
          rows={4}
          placeholder="vless://<uuid>@<host>:<port>?security=tls&sni=...#name"
          value={vlessString}
          onChange={(event) => setVlessString(event.target.value)}
        />
        <label htmlFor="add-server-name">{t('add.nameLabel')}</label>
        <input
          id="add-server-name"
          className="input"
          maxLength={SERVER_NAME_MAX}
          value={shownName}
          aria-describedby="add-server-name-hint"
          onChange={(event) => {
            setName(event.target.value);
            setNameEdited(true);
          }}
          data-testid="add-server-name"
        />
        <p id="add-server-name-hint" className="field__hint">
          {t('add.nameHint')}
        </p>
        <p className="muted" data-testid="add-server-rules">
          {t('add.rules')}
        </p>
        <p className="muted" data-testid="add-server-shared">
          {t('card.sharedCredentials')}
        </p>
        {error && (
          <Banner tone="error" data-testid="add-server-error">
            {error}
          </Banner>
        )}
        {done && (
          <Banner tone="success" data-testid="add-server-success">
            {t('add.uploaded')}
          </Banner>
        )}
        <div className="dialog__actions">
          <Button type="button" variant="secondary" onClick={onClose} disabled={busy}>
            {t('add.cancel')}
          </Button>
          <Button type="submit" variant="primary" disabled={busy || done}>
            {busy ? t('add.checking') : t('add.submit')}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
