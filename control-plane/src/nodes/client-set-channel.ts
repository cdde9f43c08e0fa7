/**
 * The PostgreSQL NOTIFY channel on which every replica hears that a server's client set (or
 * the inbound plan sent with it) changed. Named here, in the domain the client sets build on,
 * so the nodes domain can announce a plan change in its own transaction.
 */
export const CLIENT_SET_CHANNEL = 'scn_client_sets';
