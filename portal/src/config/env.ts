/** spec 01 §7: the API is the page origin (the control plane serves the portal). */
export const API_BASE = import.meta.env.VITE_API_BASE ?? '';
export const SUPPORT_EMAIL = import.meta.env.VITE_SUPPORT_EMAIL ?? 'support@scn.network';
