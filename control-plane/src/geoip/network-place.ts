/** Where an address is on the Internet: its country (ISO 3166-1 alpha-2) and its network. */
export interface NetworkPlace {
  country: string | null;
  asn: number | null;
  asnName: string | null;
}

/** An address GeoIP cannot place (unknown, not an address, or the database not loaded yet). */
export const NOWHERE: NetworkPlace = Object.freeze({ country: null, asn: null, asnName: null });
