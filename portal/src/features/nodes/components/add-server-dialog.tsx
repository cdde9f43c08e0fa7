import { UPLOAD_SERVER_MESSAGES, checkVlessLink } from '@scn/proto';
import { useEffect, useState } from 'react';
import { Banner } from '../../../components/ui/banner';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { uploadServer } from '../api/upload-server';
import { loadServers } from '../store';
import '../nodes.css';

export interface AddServerDialogProps {
  ownerUuid: string;
  open: boolean;
  onClose: () => void;
}

/**
 * spec 02 §2, §5 Add New Server: a server run without our agent, given as its VLESS string.
 * The control plane checks it (public address, a VLESS handshake with its UUID) before it is
 * added and every minute after; it is free and earns nothing (issue 15 §4). Success closes the
 * dialog after 2 s.
 */
export function AddServerDialog({ ownerUuid, open, onClose }: AddServerDialogProps) {
  const [vlessString, setVlessString] = useState('');
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);

  useEffect(() => {
    if (!done) return;
    const timer = window.setTimeout(() => {
      setDone(false);
      setVlessString('');
      setName('');
      onClose();
    }, 2000);
    return () => window.clearTimeout(timer);
  }, [done, onClose]);

  const submit = async () => {
    setError(null);
    if (!vlessString.trim()) return setError(UPLOAD_SERVER_MESSAGES.vlessRequired);
    const checked = checkVlessLink(vlessString);
    // The server answers only that the link is invalid; the dialog can say what is wrong.
    if (!checked.ok) return setError(`${UPLOAD_SERVER_MESSAGES.vlessInvalid}: ${checked.problem}`);
    setBusy(true);
    try {
      await uploadServer(ownerUuid, vlessString, name);
      setDone(true);
      void loadServers(ownerUuid);
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : 'Error uploading server');
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog
      open={open}
      onClose={() => !busy && onClose()}
      title="Add New Server"
      data-testid="add-server-dialog"
    >
      <form
        className="stack"
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <label htmlFor="add-server-vless">VLESS connection string</label>
        <textarea
          id="add-server-vless"
          className="input"
          rows={4}
          placeholder="vless://<uuid>@<host>:<port>?security=tls&sni=...#name"
          value={vlessString}
          onChange={(event) => setVlessString(event.target.value)}
        />
        <label htmlFor="add-server-name">Server name (optional)</label>
        <input
          id="add-server-name"
          className="input"
          placeholder={UPLOAD_SERVER_MESSAGES.defaultName}
          maxLength={100}
          value={name}
          onChange={(event) => setName(event.target.value)}
        />
        <p className="muted" data-testid="add-server-rules">
          VLESS over TCP with security none or tls, on a public address. The network first checks
          that the server accepts this link&apos;s UUID and forwards traffic, then again every
          minute, and scores it from that.
        </p>
        <p className="muted" data-testid="add-server-shared">
          {UPLOAD_SERVER_MESSAGES.sharedCredentials}
        </p>
        {error && (
          <Banner tone="error" data-testid="add-server-error">
            {error}
          </Banner>
        )}
        {done && (
          <Banner tone="success" data-testid="add-server-success">
            {UPLOAD_SERVER_MESSAGES.uploaded}
          </Banner>
        )}
        <div className="dialog__actions">
          <Button type="button" variant="secondary" onClick={onClose} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" variant="primary" disabled={busy || done}>
            {busy ? 'Checking...' : 'Add Server'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
