import { probeEnrollmentTokenRequestSchema } from '@scn/proto';
import { type FormEvent, useState } from 'react';
import { Banner } from '../../../components/ui/banner';
import { Button } from '../../../components/ui/button';
import { CopyButton } from '../../../components/ui/copy-button';
import { useApiErrorMessage } from '../../../lib/api-error-message';
import { formatDate } from '../../../lib/i18n/format';
import { useT } from '../../../lib/i18n/i18n';
import { type ProbeEnrollment, createProbeToken } from '../api/create-probe-token';

/** The name field's limit (the contract's probeEnrollmentTokenRequestSchema). */
const NAME_MAX = 100;

/**
 * A new vantage point: a name, then the one line to run on it (copied like the node install
 * command), valid until the token expires.
 */
export function ProbeTokenForm({ ownerUuid }: { ownerUuid: string }) {
  const { t, locale } = useT('vantage');
  const errorMessage = useApiErrorMessage();
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [issued, setIssued] = useState<ProbeEnrollment | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!probeEnrollmentTokenRequestSchema.safeParse({ name }).success) {
      return setNameError(t('form.nameInvalid', { max: NAME_MAX }));
    }
    setBusy(true);
    setError(null);
    try {
      setIssued(await createProbeToken(ownerUuid, name.trim()));
    } catch (failure) {
      setError(errorMessage(failure, t('form.failed')));
    } finally {
      setBusy(false);
    }
  };

  if (issued) {
    return (
      <div className="vantage-issued" data-testid="vantage-issued">
        <p className="small">{t('form.runThis')}</p>
        <div className="vantage-issued__command" dir="ltr">
          <pre>
            <code data-testid="vantage-command">{issued.command}</code>
          </pre>
          <CopyButton text={issued.command} data-testid="copy-vantage-command" />
        </div>
        <p className="small muted" data-testid="vantage-token-expiry">
          {t('form.expires', {
            date: formatDate(issued.expiresAt, locale, { dateStyle: 'medium', timeStyle: 'short' }),
          })}
        </p>
        <div>
          <Button
            variant="secondary"
            size="sm"
            onClick={() => {
              setIssued(null);
              setName('');
            }}
          >
            {t('form.another')}
          </Button>
        </div>
      </div>
    );
  }

  return (
    <form className="vantage-form" onSubmit={(event) => void submit(event)} noValidate>
      <div className="field">
        <label className="field__label" htmlFor={`vantage-name-${ownerUuid}`}>
          {t('form.nameLabel')}
        </label>
        <input
          id={`vantage-name-${ownerUuid}`}
          className="input"
          maxLength={NAME_MAX}
          value={name}
          placeholder={t('form.namePlaceholder')}
          aria-invalid={nameError ? true : undefined}
          aria-describedby={`vantage-name-hint-${ownerUuid}`}
          onChange={(event) => {
            setName(event.target.value);
            setNameError(null);
          }}
          data-testid="vantage-name"
        />
        <p
          id={`vantage-name-hint-${ownerUuid}`}
          className={nameError ? 'field__hint field__hint--error' : 'field__hint'}
        >
          {nameError ?? t('form.nameHint')}
        </p>
      </div>
      {error && (
        <Banner tone="error" data-testid="vantage-form-error">
          {error}
        </Banner>
      )}
      <div>
        <Button
          type="submit"
          variant="primary"
          size="sm"
          disabled={busy}
          data-testid="vantage-create"
        >
          {busy ? t('form.creating') : t('form.create')}
        </Button>
      </div>
    </form>
  );
}
