import { SUPPORT_EMAIL } from '../../config/env';

/** docs/product/screens.md#dashboards-and-information-pages: security reports go to the security mailbox of the support domain. */
export const SECURITY_EMAIL = `security@${SUPPORT_EMAIL.split('@')[1] ?? 'scn.network'}`;
