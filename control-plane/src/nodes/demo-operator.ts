/** The account that owns the demo nodes of `npm start` (it cannot sign in: random password). */
export const DEMO_OPERATOR_EMAIL = 'demo-operator@scn.local';
