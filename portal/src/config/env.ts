/**
 * Run-time settings. The control plane writes them into index.html as <meta name="scn:*"> tags
 * (so one build serves every deployment); the Vite variables are for `vite dev`.
 */
function meta(name: string): string | null {
  if (typeof document === 'undefined') return null;
  return document.querySelector<HTMLMetaElement>(`meta[name="scn:${name}"]`)?.content || null;
}

/** docs/product/calls.md#market-and-account-calls: the API is the page origin (the control plane serves the portal). */
export const API_BASE: string = import.meta.env.VITE_API_BASE ?? '';
export const SUPPORT_EMAIL: string =
  meta('support-email') ?? import.meta.env.VITE_SUPPORT_EMAIL ?? 'support@scn.network';
export const PUBLIC_URL: string =
  meta('public-url') ??
  (typeof window === 'undefined' ? 'http://localhost:5050' : window.location.origin);
/** The end of the launch period's last day (LAUNCH_PERIOD_ENDS), an ISO instant; null in dev. */
export const LAUNCH_PERIOD_ENDS_AT: string | null = meta('launch-period-ends');
/**
 * Whether the launch period applied by the server's clock when it sent the page ("true" or
 * "false"); null in dev, where the browser's clock alone decides.
 */
export const LAUNCH_PERIOD_ACTIVE_AT_LOAD: boolean | null = ((value) =>
  value === null ? null : value === 'true')(meta('launch-period-active'));
