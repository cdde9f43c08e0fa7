import { useId } from 'react';
import { Link } from 'wouter';
import { paths } from '../../config/paths';
import { useT } from '../../lib/i18n/i18n';

export function BrandMark({ size = 32 }: { size?: number }) {
  const gradientId = useId();
  return (
    <svg className="brand__mark" viewBox="0 0 32 32" width={size} height={size} aria-hidden="true">
      <defs>
        <linearGradient id={gradientId} x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="var(--color-primary)" />
          <stop offset="1" stopColor="var(--color-accent)" />
        </linearGradient>
      </defs>
      <path
        d="M16 2.5l11.5 4.3v8.4c0 7.2-4.9 12.2-11.5 14.3C9.4 27.4 4.5 22.4 4.5 15.2V6.8L16 2.5z"
        fill="none"
        stroke={`url(#${gradientId})`}
        strokeWidth="2"
        strokeLinejoin="round"
      />
      <circle cx="16" cy="15" r="2.6" fill={`url(#${gradientId})`} />
      <circle cx="10.5" cy="11" r="1.6" fill="var(--color-primary)" />
      <circle cx="21.5" cy="11" r="1.6" fill="var(--color-primary)" />
      <circle cx="16" cy="22" r="1.6" fill="var(--color-accent)" />
      <path
        d="M11.7 12l2.6 1.8M20.3 12l-2.6 1.8M16 17.6v2.8"
        stroke="var(--color-text-muted)"
        strokeWidth="1.2"
      />
    </svg>
  );
}

export function Brand() {
  const { t } = useT();
  return (
    // Named by its visible text ("SCN Secure Connection Network"): a different aria-label would
    // hide from speech-input users the words they see (WCAG 2.5.3).
    <Link href={paths.home} className="brand">
      <BrandMark />
      <span className="brand__text">
        <span className="brand__name">SCN</span>
        <span className="brand__tagline">{t('shell.tagline')}</span>
      </span>
    </Link>
  );
}
