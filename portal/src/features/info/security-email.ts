import { SUPPORT_EMAIL } from '../../config/env';

/** spec 02 §2: security reports go to the security mailbox of the support domain. */
export const SECURITY_EMAIL = `security@${SUPPORT_EMAIL.split('@')[1] ?? 'scn.network'}`;
