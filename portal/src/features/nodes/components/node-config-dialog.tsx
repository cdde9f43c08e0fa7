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
import { useT } from '../../../lib/i18n/i18n';
import { INTL_TAGS, type Locale } from '../../../lib/i18n/locale';
import { getServerConfig } from '../api/get-server-config';
import { countryName, type NodeT } from '../server-format';
import { saveServerSettings } from '../server-actions';
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
 * docs/product/screens.md#dashboards-and-information-pages Node Configuration: what the control plane knows about one server (tier and
 * capacity, agent, proxy core, address, VLESS inbound, hardware, client-set versions), and the
 * settings its owner may change: name, country (ISO 3166-1 alpha-2) and location.
 */
export function NodeConfigDialog({ ownerUuid, server, onClose }: NodeConfigDialogProps) {
  const { t } = useT('node');
  const [saving, setSaving] = useState(false);
  return (
    <Dialog
      open={server !== null}
      onClose={() => !saving && onClose()}
      title={t('config.title')}
      description={server && <bdi>{server.name}</bdi>}
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

/** The contract's messages of the settings rules, by their key in the catalogue. */
const RULE_KEYS = {
  [SERVER_SETTINGS_MESSAGES.nameRequired]: 'config.rule.nameRequired',
  [SERVER_SETTINGS_MESSAGES.nameTooLong]: 'config.rule.nameTooLong',
  [SERVER_SETTINGS_MESSAGES.nameInvalid]: 'config.rule.nameInvalid',
  [SERVER_SETTINGS_MESSAGES.locationTooLong]: 'config.rule.locationTooLong',
  [SERVER_SETTINGS_MESSAGES.locationInvalid]: 'config.rule.locationInvalid',
} as const;

/** A rule's message in the reader's language (the contract's own text for one it lacks). */
function ruleText(message: string | undefined, max: number, t: NodeT): string | undefined {
  if (message === undefined) return undefined;
  const key = (RULE_KEYS as Record<string, (typeof RULE_KEYS)[keyof typeof RULE_KEYS]>)[message];
  return key ? t(key, { max }) : message;
}

/** The same rules as the control plane (the shared contract), shown beside each field. */
function validate(form: Form, t: NodeT): FieldErrors {
  const errors: FieldErrors = {};
  const name = serverNameSchema.safeParse(form.name);
  if (!name.success) errors.name = ruleText(name.error.issues[0]?.message, SERVER_NAME_MAX, t);
  if (form.country && !COUNTRY_CODES.includes(form.country)) {
    errors.country = t('config.rule.countryInvalid');
  }
  const location = serverLocationSchema.safeParse(form.location);
  if (!location.success)
    errors.location = ruleText(location.error.issues[0]?.message, SERVER_LOCATION_MAX, t);
  return errors;
}

const countryOptions = new Map<Locale, Array<{ code: string; name: string }>>();

/** Every ISO 3166-1 country by its name in the reader's language, in its alphabetical order. */
function countries(locale: Locale): Array<{ code: string; name: string }> {
  let options = countryOptions.get(locale);
  if (!options) {
    options = COUNTRY_CODES.map((code) => ({ code, name: countryName(code, locale) })).sort(
      (a, b) => a.name.localeCompare(b.name, INTL_TAGS[locale]),
    );
    countryOptions.set(locale, options);
  }
  return options;
}

function NodeConfigBody({ ownerUuid, serverId, saving, setSaving, onClose }: BodyProps) {
  const { t, locale } = useT('node');
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
        setLoadError(error instanceof ApiError ? error.message : '');
      },
    );
    return () => controller.abort();
  }, [ownerUuid, serverId, attempt]);

  if (loadError !== null) {
    return (
      <LoadError
        message={loadError || t('config.loadFailed')}
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
    const errors = validate(form, t);
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
      setSaveError((error instanceof Error && error.message) || t('config.saveFailed'));
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
        <h3 className="node-config__heading">{t('config.settings')}</h3>
        <div className="field">
          <label className="field__label" htmlFor="node-config-name">
            {t('config.name')}
          </label>
          <input
            {...fieldProps('name')}
            className="input"
            maxLength={SERVER_NAME_MAX}
            value={form.name}
            onChange={(event) => edit('name', event.target.value)}
          />
          {hint('name', t('config.nameHint'))}
        </div>
        <div className="node-config__row">
          <div className="field">
            <label className="field__label" htmlFor="node-config-country">
              {t('config.country')}
            </label>
            <select
              {...fieldProps('country')}
              className="input"
              value={form.country}
              onChange={(event) => edit('country', event.target.value)}
            >
              <option value="">{t('config.countryNotSet')}</option>
              {countries(locale).map(({ code, name }) => (
                <option key={code} value={code}>
                  {t('config.countryOption', { name, code })}
                </option>
              ))}
            </select>
            {hint('country', t('config.countryHint'))}
          </div>
          <div className="field">
            <label className="field__label" htmlFor="node-config-location">
              {t('config.location')}
            </label>
            <input
              {...fieldProps('location')}
              className="input"
              maxLength={SERVER_LOCATION_MAX}
              placeholder={t('config.locationPlaceholder')}
              value={form.location}
              onChange={(event) => edit('location', event.target.value)}
            />
            {hint('location', t('config.locationHint', { max: SERVER_LOCATION_MAX }))}
          </div>
        </div>
        <SaveResult error={saveError} saved={saved} />
        <div className="dialog__actions">
          <Button variant="secondary" onClick={onClose} disabled={saving}>
            {t('config.close')}
          </Button>
          <Button type="submit" variant="primary" disabled={saving || !dirty}>
            {saving ? t('config.saving') : t('config.save')}
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
  const { t } = useT('node');
  return (
    <div className="stack">
      <Banner tone="error" data-testid="node-config-load-error">
        {message}
      </Banner>
      <div className="dialog__actions">
        <Button variant="secondary" onClick={onClose}>
          {t('config.close')}
        </Button>
        <Button variant="primary" onClick={onRetry}>
          {t('config.retry')}
        </Button>
      </div>
    </div>
  );
}

function ConfigLoading() {
  const { t } = useT('node');
  return (
    <div className="page-loading" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      <span>{t('config.loading')}</span>
    </div>
  );
}

/** How the last save went: its error, or that the settings were updated. */
function SaveResult({ error, saved }: { error: string | null; saved: boolean }) {
  const { t } = useT('node');
  return (
    <>
      {error && (
        <Banner tone="error" data-testid="node-config-error">
          {error}
        </Banner>
      )}
      {saved && (
        <Banner tone="success" data-testid="node-config-saved">
          {t('config.saved')}
        </Banner>
      )}
    </>
  );
}
