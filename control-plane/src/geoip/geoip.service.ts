import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import {
  type GeoIpDatabase,
  folderFiles,
  loadGeoIpDatabase,
  packagedFiles,
} from './geoip-database';
import { GeoIpOverrides } from './geoip-overrides';
import { ipKey } from './ip-key';
import { NOWHERE, type NetworkPlace } from './network-place';
import { isSpecial } from './special-ranges';

/**
 * One load per set of files and process: the tests start many applications in one process, and
 * the database never changes while it runs (a new GEOIP_DIR takes a restart).
 */
const loads = new Map<string, Promise<GeoIpDatabase>>();

function sharedLoad(files: ReturnType<typeof packagedFiles>): Promise<GeoIpDatabase> {
  const key = JSON.stringify(files);
  let load = loads.get(key);
  if (!load) {
    load = loadGeoIpDatabase(files);
    loads.set(key, load);
    // A failed load is tried again by the next application, not remembered.
    load.catch(() => loads.delete(key));
  }
  return load;
}

/**
 * Which country and network (ASN) an address belongs to, from a local copy of ip-location-db
 * (docs/reachability.md#geoip). The database loads in the background from start; until then,
 * and for an address it does not know, every field is null.
 */
@Injectable()
export class GeoIpService implements OnModuleInit {
  private readonly logger = new Logger('GeoIp');
  private readonly overrides: GeoIpOverrides;
  private database: GeoIpDatabase | null = null;
  private ready: Promise<void> | null = null;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    this.overrides = new GeoIpOverrides(config.geoipTestOverrides);
  }

  onModuleInit(): void {
    // Not awaited: boot goes on while the files are read.
    void this.start().catch(() => undefined);
  }

  /** Resolves once the database is loaded; rejects when it could not be. */
  whenReady(): Promise<void> {
    return this.start();
  }

  /** The place of an IPv4, IPv6 or IPv4-mapped IPv6 address; never throws. */
  lookup(address: string): NetworkPlace {
    const key = ipKey(address);
    if (!key) return NOWHERE;
    const override = this.overrides.find(key);
    if (override) return override;
    if (!this.database) return NOWHERE;
    // Private, loopback, documentation...: no network on the Internet holds them (the data has
    // rows for some, e.g. 192.168.0.0/16 as AU, which would misplace a client behind a proxy).
    if (isSpecial(key)) return NOWHERE;
    return this.database.place(key);
  }

  /** A network's name by its number (e.g. 44244: "Iran Cell Service and Communication Company"). */
  asnName(asn: number): string | null {
    const overridden = this.overrides.asnName(asn);
    if (overridden !== undefined) return overridden;
    return this.database?.asnName(asn) ?? null;
  }

  private start(): Promise<void> {
    if (this.ready) return this.ready;
    const source = this.config.geoipDir ?? 'packaged @ip-location-db';
    const files = this.config.geoipDir ? folderFiles(this.config.geoipDir) : packagedFiles();
    const started = performance.now();
    this.ready = sharedLoad(files).then(
      (database) => {
        this.database = database;
        const { rows, bytes } = database.size;
        this.logger.log(
          `GeoIP loaded from ${source}: ${rows} ranges, ${(bytes / 1048576).toFixed(1)} MiB of tables, ${Math.round(performance.now() - started)} ms`,
        );
      },
      (error: unknown) => {
        this.logger.error(
          `GeoIP could not be loaded from ${source} (every address stays unplaced): ${(error as Error).message}`,
        );
        throw error;
      },
    );
    return this.ready;
  }
}
