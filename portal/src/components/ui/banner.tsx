import type { ReactNode } from 'react';

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
      <span className="banner__icon" aria-hidden="true">
        {tone === 'error' ? '!' : tone === 'success' ? '✓' : 'i'}
      </span>
      <span className="banner__text">{children}</span>
    </div>
  );
}
