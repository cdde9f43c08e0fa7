import type { ReactNode } from 'react';
import './banner.css';

export type BannerTone = 'error' | 'success' | 'info' | 'warning';

export interface BannerProps {
  tone: BannerTone;
  children: ReactNode;
  className?: string;
  'data-testid'?: string;
}

/** A message strip. Errors are announced at once (role=alert), the rest politely (role=status). */
export function Banner({ tone, children, className, 'data-testid': testId }: BannerProps) {
  return (
    <div
      role={tone === 'error' ? 'alert' : 'status'}
      className={['banner', `banner--${tone}`, className ?? ''].filter(Boolean).join(' ')}
      data-testid={testId}
    >
      {/* Drawn, not typed: the banner's text content stays exactly the message. */}
      <svg className="banner__icon" viewBox="0 0 20 20" width="20" height="20" aria-hidden="true">
        <circle cx="10" cy="10" r="10" />
        {tone === 'success' ? (
          <path d="M6 10.5l2.5 2.5L14 7.5" />
        ) : tone === 'error' || tone === 'warning' ? (
          <path d="M10 5.5v5.5M10 14.2v.3" />
        ) : (
          <path d="M10 9v5.5M10 5.8v.3" />
        )}
      </svg>
      <span className="banner__text">{children}</span>
    </div>
  );
}
