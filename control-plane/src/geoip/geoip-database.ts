import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { GEOIP_FILES } from '../config/geoip-settings';
import { AsnTable, countryCode, countryValue, readIpv4Ranges, readIpv6Ranges } from './geoip-csv';
import type { IpKey } from './ip-key';
import { NOWHERE, type NetworkPlace } from './network-place';
import type { RangeTable } from './range-table';

/** Where ip-location-db's npm packages put their CSV files (the packaged database). */
export function packagedFiles(): Record<keyof typeof GEOIP_FILES, string> {
  const asnDir = dirname(require.resolve('@ip-location-db/asn/package.json'));
  const countryDir = dirname(require.resolve('@ip-location-db/geo-whois-asn-country/package.json'));
  return {
    asn4: join(asnDir, GEOIP_FILES.asn4),
    asn6: join(asnDir, GEOIP_FILES.asn6),
    country4: join(countryDir, GEOIP_FILES.country4),
    country6: join(countryDir, GEOIP_FILES.country6),
  };
}

/** The four files of a GEOIP_DIR folder. */
export function folderFiles(dir: string): Record<keyof typeof GEOIP_FILES, string> {
  return {
    asn4: join(dir, GEOIP_FILES.asn4),
    asn6: join(dir, GEOIP_FILES.asn6),
    country4: join(dir, GEOIP_FILES.country4),
    country6: join(dir, GEOIP_FILES.country6),
  };
}

export interface GeoIpTables {
  asn4: RangeTable<number>;
  asn6: RangeTable<bigint>;
  country4: RangeTable<number>;
  country6: RangeTable<bigint>;
  /** Row values of the ASN tables index these. */
  asnNumbers: Uint32Array;
  asnNames: ReadonlyArray<string | null>;
}

/** The loaded database: what network and country an address belongs to. */
export class GeoIpDatabase {
  constructor(
    private readonly tables: GeoIpTables,
    /** IPv6 rows that overlapped another in 64-bit keys (networks below /64). */
    readonly ipv6Overlaps: number,
  ) {}

  place(key: IpKey): NetworkPlace {
    const t = this.tables;
    const asnAt = key.family === 'ipv4' ? t.asn4.find(key.value) : t.asn6.find(key.upper);
    const country = key.family === 'ipv4' ? t.country4.find(key.value) : t.country6.find(key.upper);
    if (asnAt < 0 && country < 0) return NOWHERE;
    return {
      country: country < 0 ? null : countryCode(country),
      asn: asnAt < 0 ? null : t.asnNumbers[asnAt]!,
      asnName: asnAt < 0 ? null : (t.asnNames[asnAt] ?? null),
    };
  }

  private names: Map<number, string | null> | null = null;

  /** A network's name by its number (built on first use: one entry per network). */
  asnName(asn: number): string | null {
    if (!this.names) {
      const t = this.tables;
      this.names = new Map();
      for (let i = 0; i < t.asnNumbers.length; i += 1) {
        if (!this.names.get(t.asnNumbers[i]!))
          this.names.set(t.asnNumbers[i]!, t.asnNames[i] ?? null);
      }
    }
    return this.names.get(asn) ?? null;
  }

  /** Rows and bytes of the typed arrays (the names' strings are on the heap besides). */
  get size(): { rows: number; bytes: number; networks: number } {
    const t = this.tables;
    const tables = [t.asn4, t.asn6, t.country4, t.country6];
    return {
      rows: tables.reduce((sum, table) => sum + table.length, 0),
      bytes: tables.reduce((sum, table) => sum + table.byteLength, t.asnNumbers.byteLength),
      networks: t.asnNumbers.length,
    };
  }
}

/**
 * Reads the four files one after another (one file's bytes in memory at a time), parsing in
 * slices between which the event loop runs.
 */
export async function loadGeoIpDatabase(
  files: Record<keyof typeof GEOIP_FILES, string>,
): Promise<GeoIpDatabase> {
  const asns = new AsnTable();
  const asn4 = await readIpv4Ranges(await readFile(files.asn4), asns.value, files.asn4);
  const asn6 = await readIpv6Ranges(await readFile(files.asn6), asns.value, files.asn6);
  const country4 = await readIpv4Ranges(
    await readFile(files.country4),
    countryValue,
    files.country4,
  );
  const country6 = await readIpv6Ranges(
    await readFile(files.country6),
    countryValue,
    files.country6,
  );
  return new GeoIpDatabase(
    {
      asn4: asn4.finish(),
      asn6: asn6.finish(),
      country4: country4.finish(),
      country6: country6.finish(),
      asnNumbers: Uint32Array.from(asns.numbers),
      asnNames: asns.names,
    },
    asn6.overlaps + country6.overlaps,
  );
}
