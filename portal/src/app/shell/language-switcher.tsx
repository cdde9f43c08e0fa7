import { useId } from 'react';
import { LOCALES, LOCALE_NATIVE_NAMES, isLocale } from '../../lib/i18n/locale';
import { saveAccountLocale } from '../../features/session/store';
import { switchLocale, useT } from '../../lib/i18n/i18n';

/**
 * The language choice (docs/i18n.md): each language in its own name and script, so a reader
 * finds theirs whatever language the page is in now. A native select: one tap on a phone.
 */
export function LanguageSwitcher({
  className = '',
  testId,
}: {
  className?: string;
  testId: string;
}) {
  const { t, locale } = useT();
  const id = useId();
  return (
    <span className={`language-switcher ${className}`.trim()}>
      <label htmlFor={id} className="sr-only">
        {t('language.label')}
      </label>
      <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true">
        <circle cx="12" cy="12" r="9" fill="none" stroke="currentColor" strokeWidth="1.7" />
        <path
          d="M3 12h18M12 3c2.5 2.6 3.8 5.6 3.8 9s-1.3 6.4-3.8 9c-2.5-2.6-3.8-5.6-3.8-9S9.5 5.6 12 3z"
          fill="none"
          stroke="currentColor"
          strokeWidth="1.7"
        />
      </svg>
      <select
        id={id}
        className="language-switcher__select"
        value={locale}
        data-testid={testId}
        onChange={(event) => {
          const chosen = event.target.value;
          if (!isLocale(chosen)) return;
          void switchLocale(chosen);
          void saveAccountLocale(chosen);
        }}
      >
        {LOCALES.map((option) => (
          <option key={option} value={option} lang={option}>
            {LOCALE_NATIVE_NAMES[option]}
          </option>
        ))}
      </select>
    </span>
  );
}
