import type { GeoIpOverride } from '../config/geoip-settings';
import { type IpKey, inPrefix, ipKey } from './ip-key';
import type { NetworkPlace } from './network-place';

interface Entry {
  network: IpKey;
  prefix: number;
  place: NetworkPlace;
}

/** GEOIP_TEST_OVERRIDES (tests only): the longest prefix holding an address wins. */
export class GeoIpOverrides {
  private readonly entries: Entry[];

  constructor(overrides: readonly GeoIpOverride[]) {
    this.entries = overrides
      .flatMap((o): Entry[] => {
        const network = ipKey(o.network);
        const place = { country: o.country, asn: o.asn, asnName: o.asnName };
        return network ? [{ network, prefix: o.prefix, place }] : [];
      })
      .sort((a, b) => b.prefix - a.prefix);
  }

  /** The name an override gives a network number, or undefined when none names it. */
  asnName(asn: number): string | null | undefined {
    return this.entries.find((entry) => entry.place.asn === asn)?.place.asnName;
  }

  /** The place of the longest override prefix holding `key`, or null. */
  find(key: IpKey): NetworkPlace | null {
    for (const entry of this.entries) {
      if (inPrefix(key, entry.network, entry.prefix)) return entry.place;
    }
    return null;
  }
}
