import {
  COUNTRY_CODES,
  type NodeServer,
  type NodeServerDetails,
  SERVER_LOCATION_MAX,
  SERVER_NAME_MAX,
  SERVER_SETTINGS_MESSAGES,
  serverLocationSchema,
  serverNameSchema,
  type UpdateServerRequest,
} from '@scn/proto';
import { type FormEvent, useEffect, useState } from 'react';
import { Banner } from '../../../components/ui/banner';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { ApiError } from '../../../lib/api-client';
import { getServerConfig } from '../api/get-server-config';
import { countryName } from '../server-format';
import { saveServerSettings } from '../store';
import { ServerFacts } from './node-config-facts';
import { NodeTransport } from './node-transport';
import '../nodes.css';

export interface NodeConfigDialogProps {
  ownerUuid: string;
  /** The server row the dialog was opened from; null: closed. */
  server: NodeServer | null;
  onClose: () => void;
}

/**
 * spec 02 §2 Node Configuration: what the control plane knows about one server (tier and
 * capacity, agent, proxy core, address, VLESS inbound, hardware, client-set versions), and the
 * settings its owner may change: name, country (ISO 3166-1 alpha-2) and location.
 */
export function NodeConfigDialog({ ownerUuid, server, onClose }: NodeConfigDialogProps) {
  const [saving, setSaving] = useState(false);
  return (
    <Dialog
      open={server !== null}
      onClose={() => !saving && onClose()}
      title="Node Configuration"
      description={server?.name}
      size="lg"
      data-testid="node-config-dialog"
    >
      {server && (
        <NodeConfigBody
          key={server.id}
          ownerUuid={ownerUuid}
          serverId={server.id}
          saving={saving}
          setSaving={setSaving}
          onClose={onClose}
        />
      )}
    </Dialog>
  );
}

interface BodyProps {
  ownerUuid: string;
  serverId: string;
  saving: boolean;
  setSaving: (saving: boolean) => void;
  onClose: () => void;
}

interface Form {
  name: string;
  country: string;
  location: string;
}

type FieldErrors = Partial<Record<keyof Form, string>>;

function formOf(server: NodeServerDetails): Form {
  return { name: server.name, country: server.country ?? '', location: server.location ?? '' };
}

/** Only what changed, so a save never rewrites a field someone else just changed. */
function changesOf(form: Form, saved: NodeServerDetails): UpdateServerRequest {
  const changes: UpdateServerRequest = {};
  if (form.name.trim() !== saved.name) changes.name = form.name;
  if ((form.country || null) !== saved.country) changes.country = form.country || null;
  if ((form.location.trim() || null) !== saved.location) changes.location = form.location;
  return changes;
}

/** The same rules as the control plane (the shared contract), shown beside each field. */
function validate(form: Form): FieldErrors {
  const errors: FieldErrors = {};
  const name = serverNameSchema.safeParse(form.name);
  if (!name.success) errors.name = name.error.issues[0]?.message;
  if (form.country && !COUNTRY_CODES.includes(form.country)) {
    errors.country = SERVER_SETTINGS_MESSAGES.countryInvalid;
  }
  const location = serverLocationSchema.safeParse(form.location);
  if (!location.success) errors.location = location.error.issues[0]?.message;
  return errors;
}

let countryOptions: Array<{ code: string; name: string }> | null = null;

/** Every ISO 3166-1 country by its English name. */
function countries(): Array<{ code: string; name: string }> {
  countryOptions ??= COUNTRY_CODES.map((code) => ({ code, name: countryName(code) })).sort((a, b) =>
    a.name.localeCompare(b.name, 'en'),
  );
  return countryOptions;
}

function NodeConfigBody({ ownerUuid, serverId, saving, setSaving, onClose }: BodyProps) {
  const [details, setDetails] = useState<NodeServerDetails | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  const [form, setForm] = useState<Form>({ name: '', country: '', location: '' });
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [saveError, setSaveError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);

  useEffect(() => {
    const controller = new AbortController();
    getServerConfig(ownerUuid, serverId, controller.signal).then(
      ({ server }) => {
        setDetails(server);
        setForm(formOf(server));
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        setLoadError(
          error instanceof ApiError ? error.message : 'Failed to load the server configuration',
        );
      },
    );
    return () => controller.abort();
  }, [ownerUuid, serverId, attempt]);

  if (loadError) {
    return (
      <LoadError
        message={loadError}
        onClose={onClose}
        onRetry={() => {
          setLoadError(null);
          setAttempt((n) => n + 1);
        }}
      />
    );
  }
  if (!details) return <ConfigLoading />;

  const changes = changesOf(form, details);
  const dirty = Object.keys(changes).length > 0;

  const edit = (field: keyof Form, value: string) => {
    setForm((current) => ({ ...current, [field]: value }));
    setFieldErrors((current) => ({ ...current, [field]: undefined }));
    setSaveError(null);
    setSaved(false);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const errors = validate(form);
    setFieldErrors(errors);
    if (Object.values(errors).some(Boolean) || !dirty) return;
    setSaving(true);
    setSaveError(null);
    try {
      const server = await saveServerSettings(ownerUuid, serverId, changes);
      setDetails(server);
      setForm(formOf(server));
      setSaved(true);
    } catch (error) {
      setSaveError(error instanceof Error ? error.message : 'Failed to save the server settings');
    } finally {
      setSaving(false);
    }
  };

  const fieldProps = (field: keyof Form) => ({
    id: `node-config-${field}`,
    'aria-invalid': fieldErrors[field] ? true : undefined,
    'aria-describedby': `node-config-${field}-hint`,
    disabled: saving,
  });
  const hint = (field: keyof Form, text: string) => (
    <p
      id={`node-config-${field}-hint`}
      className={fieldErrors[field] ? 'field__hint field__hint--error' : 'field__hint'}
      data-testid={fieldErrors[field] ? `node-config-${field}-error` : undefined}
    >
      {fieldErrors[field] ?? text}
    </p>
  );

  return (
    <div className="node-config" data-testid="node-config">
      <form className="form node-config__form" onSubmit={(event) => void submit(event)} noValidate>
        <h3 className="node-config__heading">Settings</h3>
        <div className="field">
          <label className="field__label" htmlFor="node-config-name">
            Name
          </label>
          <input
            {...fieldProps('name')}
            className="input"
            maxLength={SERVER_NAME_MAX}
            value={form.name}
            onChange={(event) => edit('name', event.target.value)}
          />
          {hint('name', 'Shown on your dashboard and in the market.')}
        </div>
        <div className="node-config__row">
          <div className="field">
            <label className="field__label" htmlFor="node-config-country">
              Country
            </label>
            <select
              {...fieldProps('country')}
              className="input"
              value={form.country}
              onChange={(event) => edit('country', event.target.value)}
            >
              <option value="">Not set</option>
              {countries().map(({ code, name }) => (
                <option key={code} value={code}>
                  {name} ({code})
                </option>
              ))}
            </select>
            {hint('country', 'Where the server is: clients pick servers by country.')}
          </div>
          <div className="field">
            <label className="field__label" htmlFor="node-config-location">
              Location
            </label>
            <input
              {...fieldProps('location')}
              className="input"
              maxLength={SERVER_LOCATION_MAX}
              placeholder="e.g. Frankfurt, Hetzner FSN1"
              value={form.location}
              onChange={(event) => edit('location', event.target.value)}
            />
            {hint('location', `City or data centre, up to ${SERVER_LOCATION_MAX} characters.`)}
          </div>
        </div>
        <SaveResult error={saveError} saved={saved} />
        <div className="dialog__actions">
          <Button variant="secondary" onClick={onClose} disabled={saving}>
            Close
          </Button>
          <Button type="submit" variant="primary" disabled={saving || !dirty}>
            {saving ? 'Saving...' : 'Save Changes'}
          </Button>
        </div>
      </form>
      <NodeTransport ownerUuid={ownerUuid} server={details} onChanged={setDetails} />
      <ServerFacts server={details} />
    </div>
  );
}

/** The configuration could not be read: why, Close and Try Again. */
function LoadError({
  message,
  onClose,
  onRetry,
}: {
  message: string;
  onClose: () => void;
  onRetry: () => void;
}) {
  return (
    <div className="stack">
      <Banner tone="error" data-testid="node-config-load-error">
        {message}
      </Banner>
      <div className="dialog__actions">
        <Button variant="secondary" onClick={onClose}>
          Close
        </Button>
        <Button variant="primary" onClick={onRetry}>
          Try Again
        </Button>
      </div>
    </div>
  );
}

function ConfigLoading() {
  return (
    <div className="page-loading" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      <span>Loading the configuration...</span>
    </div>
  );
}

/** How the last save went: its error, or that the settings were updated. */
function SaveResult({ error, saved }: { error: string | null; saved: boolean }) {
  return (
    <>
      {error && (
        <Banner tone="error" data-testid="node-config-error">
          {error}
        </Banner>
      )}
      {saved && (
        <Banner tone="success" data-testid="node-config-saved">
          {SERVER_SETTINGS_MESSAGES.updated}
        </Banner>
      )}
    </>
  );
}
