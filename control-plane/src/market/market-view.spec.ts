import type { ListingRow } from './market.repository';
import { statusOf, toMarketServer } from './market-view';

const row: ListingRow = {
  server_id: '00000000-0000-4000-8000-000000000001',
  country: 'DE',
  reliability: 98,
  stale: false,
  ping_ms: 42,
  uptime_hours: 30,
  allowed_clients: 3,
  capacity: 25,
  premium: false,
  promoted: false,
  core_down: false,
  disabled: false,
  sort_reliability: 98,
  owner_uuid: '00000000-0000-4000-8000-00000000000a',
  name: 'Frankfurt 1',
  location: 'Frankfurt',
  host: 'de1.example',
  port: 443,
  inbound: {
    security: 'reality',
    sni: 'www.example.com',
    fp: 'chrome',
    pbk: 'k',
    sid: 'ab',
    flow: 'xtls-rprx-vision',
    network: 'tcp',
  },
  source: 'agent',
  last_report_at: new Date('2026-11-20T12:00:00Z'),
  active_clients: 2,
  premium_number: null,
};
const context = {
  now: new Date('2026-11-20T12:00:30Z'),
  launchPeriodEndsAt: new Date('2025-12-31T23:59:59.999Z'),
};

describe('toMarketServer', () => {
  it('should show every field of spec 01 §3 and never a working connection string', () => {
    expect(toMarketServer(row, context)).toEqual({
      id: row.server_id,
      name: 'Frankfurt 1',
      ip: 'de1.example',
      country: 'DE',
      countryCode: 'DE',
      location: 'Frankfurt',
      isPromoted: false,
      isAdminServer: false,
      availableUuids: 22,
      hasAvailable: true,
      price: 10,
      priceMicro: '10000000',
      nodeUUID: row.owner_uuid,
      userUuid: row.owner_uuid,
      authUuid: row.owner_uuid,
      lastUpdated: '2026-11-20T12:00:00.000Z',
      reliability: 98,
      ping: 42,
      latency: 42,
      uptime: 30,
      status: 'online',
      isDisabled: false,
      unavailable: false,
      isStale: false,
      serverType: 'agent',
      sharedCredentials: false,
      controls: { connectButton: true, price: 10, reason: null },
      vlessLink: '',
      vlessString: '',
      host: 'de1.example',
      port: 443,
      security: 'reality',
      sni: 'www.example.com',
      fp: 'chrome',
      pbk: 'k',
      sid: 'ab',
      flow: 'xtls-rprx-vision',
      type: 'tcp',
      activeConnections: 2,
      isSubscribed: false,
      reachability: 'unknown',
    });
  });

  it('should list regular servers free during the launch period and premium ones at 10 SSL', () => {
    const launch = { ...context, now: new Date('2025-12-01T00:00:00Z') };
    expect(toMarketServer(row, launch).price).toBe(0);
    const premium = toMarketServer(
      { ...row, premium: true, sort_reliability: 100, premium_number: 3 },
      launch,
    );
    expect(premium).toMatchObject({
      name: 'Premium Server 3',
      country: 'Premium Network',
      countryCode: 'DE',
      location: 'Premium',
      isAdminServer: true,
      isPromoted: true,
      price: 10,
      reliability: 100,
    });
  });

  it('should say why the connect button is off', () => {
    expect(
      toMarketServer({ ...row, allowed_clients: 25, disabled: true, sort_reliability: 0 }, context),
    ).toMatchObject({
      availableUuids: 0,
      hasAvailable: false,
      isDisabled: true,
      reliability: 0,
      controls: { connectButton: false, reason: 'No available slots' },
    });
    expect(toMarketServer({ ...row, stale: true, disabled: true }, context).controls.reason).toBe(
      'Server is offline',
    );
    expect(
      toMarketServer({ ...row, core_down: true, disabled: true }, context).controls.reason,
    ).toBe('Server is unavailable');
  });

  it('should list a server added without the agent as free, with shared credentials', () => {
    expect(toMarketServer({ ...row, source: 'manual' }, context)).toMatchObject({
      price: 0,
      priceMicro: '0',
      controls: { price: 0 },
      serverType: 'manual',
      sharedCredentials: true,
    });
  });
});

describe('statusOf', () => {
  it('should count stale as offline and below 50 or a down core as unavailable', () => {
    expect(statusOf({ stale: true, reliability: 100, core_down: false })).toBe('offline');
    expect(statusOf({ stale: false, reliability: 49, core_down: false })).toBe('unavailable');
    expect(statusOf({ stale: false, reliability: 100, core_down: true })).toBe('unavailable');
    expect(statusOf({ stale: false, reliability: 50, core_down: false })).toBe('online');
  });
});
