import { createServer, type Server } from 'node:http';
import { decodeSubscriptionContent, parseVlessLink } from '@scn/proto';
import { AgentGrpcServer } from '../../src/grpc/agent-grpc.server';
import type { CensoredWorld, Country } from './censor-netns';
import { freePort, waitFor } from './processes';
import type { ServedV2rayConfig } from './reachability-agents';
import { startTestApp, type TestApp } from './test-app';

/**
 * The control plane of a censored world (censor-netns.ts): the real application, in this
 * process, on the world's first service address so the countries reach its HTTP and gRPC ports
 * through their veths, with the GeoIP test override placing each country's address, the
 * reachability loops fast, and TRUST_PROXY left at its default (loopback: the countries'
 * requests come straight from their own addresses, so they are placed by those). The suite's
 * own calls (t.http()) still go over loopback.
 */

/**
 * Fast reachability loops (defaults 60000). loadConfig reads only the names env.schema.ts
 * declares, so before the reachability settings exist these are ignored, not refused.
 * TODO(lead): the names as env.schema.ts spells them.
 */
export const FAST_REACHABILITY_ENV: Record<string, string> = {
  REACHABILITY_PROBE_INTERVAL_MS: '2000',
  REACHABILITY_JOB_INTERVAL_MS: '2000',
};

export interface WorldControlPlane {
  t: TestApp;
  /** http://<service address>:<port>, what the countries use (and PUBLIC_URL). */
  base: string;
  /** <service address>:<gRPC port>, what agents and vantage points enroll with. */
  grpcTarget: string;
  close(): Promise<void>;
}

/**
 * `probeTargetUrl`: what a VLESS check (manual servers, vantage points) asks a server to reach:
 * a test host in a country (the default, PUBLIC_URL/healthz, is the control plane's own address
 * on the nodes' machine, which a node refuses as its own).
 */
export async function startWorldControlPlane(
  world: CensoredWorld,
  probeTargetUrl: string,
  env: Record<string, string> = {},
): Promise<WorldControlPlane> {
  const address = world.services[0]!;
  const port = await freePort();
  const base = `http://${address}:${port}`;
  const t = await startTestApp({
    PUBLIC_URL: base,
    GRPC_HOST: address,
    GRPC_PORT: '0',
    GEOIP_TEST_OVERRIDES: world.geoipOverrides,
    // Free subscriptions (the launch period): no chain to fund clients from.
    LAUNCH_PERIOD_ENDS: '2099-12-31',
    MARKET_PAGE_CACHE_MS: '0',
    MANUAL_PROBE_URL: probeTargetUrl,
    ...FAST_REACHABILITY_ENV,
    ...env,
  });
  // A second listener of the same Express application, on the service address.
  const listener: Server = createServer(t.app.getHttpAdapter().getInstance());
  await new Promise<void>((resolve, reject) => {
    listener.once('error', reject);
    listener.listen(port, address, resolve);
  });
  const grpcPort = t.app.get(AgentGrpcServer).port;
  return {
    t,
    base,
    grpcTarget: `${address}:${grpcPort}`,
    async close() {
      listener.closeAllConnections();
      await new Promise<void>((resolve) => listener.close(() => resolve()));
      await t.close();
    },
  };
}

export interface FeedLink {
  link: string;
  host: string;
  port: number;
}

/** The base64 feed of a subscription URL as `country` fetches it: its links, in order. */
export async function feedFrom(country: Country, subscriptionUrl: string): Promise<FeedLink[]> {
  const { status, body } = await country.get(subscriptionUrl);
  if (status !== 200) throw new Error(`feed from ${country.key}: ${status} ${body}`);
  const links = decodeSubscriptionContent(body);
  if (!links) throw new Error(`feed from ${country.key} is not a link list: ${body}`);
  return links.map((link) => {
    const parsed = parseVlessLink(link);
    if (!parsed) throw new Error(`not a VLESS link: ${link}`);
    return { link, host: parsed.host, port: parsed.port };
  });
}

/** The v2ray JSON the feed serves to v2rayNG in `country` (`?format=v2ray`). */
export async function v2rayConfigFrom(
  country: Country,
  subscriptionUrl: string,
): Promise<ServedV2rayConfig> {
  const url = new URL(subscriptionUrl);
  url.searchParams.set('format', 'v2ray');
  const { status, body } = await country.get(url.toString(), { 'User-Agent': 'v2rayNG/1.8.29' });
  if (status !== 200) throw new Error(`v2ray feed from ${country.key}: ${status} ${body}`);
  return JSON.parse(body) as ServedV2rayConfig;
}

/** A JSON GET from inside `country` (the market, the reachability calls). */
export async function jsonFrom<T>(country: Country, url: string): Promise<T> {
  const { status, body } = await country.get(url, { Accept: 'application/json' });
  if (status !== 200) throw new Error(`GET ${url} from ${country.key}: ${status} ${body}`);
  return JSON.parse(body) as T;
}

/**
 * Waits for `check` like waitFor and answers what it found with the seconds since `since`,
 * printed as a `[figure]` line (docs/reachability.md takes them from there).
 */
export async function timed<T>(
  figure: string,
  since: number,
  check: () => Promise<T | null>,
  ms: number,
): Promise<{ value: T; seconds: number }> {
  const value = await waitFor(figure, check, ms, 250);
  const seconds = (Date.now() - since) / 1000;
  console.log(`[figure] ${figure}: ${seconds.toFixed(1)} s`);
  return { value, seconds };
}
