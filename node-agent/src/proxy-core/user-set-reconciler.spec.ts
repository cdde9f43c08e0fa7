import type { ProxyCoreKind } from '@scn/proto';
import { FakeCoreApi, ManualTime } from './core-runtime.fixture';
import { UserSetReconciler } from './user-set-reconciler';

const A = '0a000000-0000-4000-8000-000000000001';
const B = '0b000000-0000-4000-8000-000000000002';
const C = '0c000000-0000-4000-8000-000000000003';
const STRANGER = 'ffffffff-0000-4000-8000-00000000000f';
const CUT_INTERVAL_MS = 300_000;

function setup(kind: ProxyCoreKind = 'xray') {
  const time = new ManualTime();
  const api = new FakeCoreApi();
  const users = new UserSetReconciler({
    kind,
    flow: () => 'xtls-rprx-vision',
    revocationCutMinIntervalMs: CUT_INTERVAL_MS,
    clock: time,
  });
  return { time, api, users };
}

describe('UserSetReconciler', () => {
  it('should add the missing users and remove the extra ones when the desired set changes', async () => {
    const { api, users } = setup();
    users.setDesired([A, B]);
    await users.apply(api);

    users.setDesired([B, C]);
    await users.apply(api);

    expect(api.changes).toEqual([`+${A}`, `+${B}`, `+${C}`, `-${A}`]);
    expect([...api.users].sort()).toEqual([B, C]);
    expect(users.appliedUuids()).toEqual([B, C]);
  });

  it('should retry exactly the failed change when an add was refused', async () => {
    const { api, users } = setup();
    users.setDesired([A, B]);
    api.refuse.add(B);

    await expect(users.apply(api)).rejects.toMatchObject({
      code: 'core_api_failed',
      message: expect.stringMatching(/^1 user change\(s\) failed: AddUser/),
    });
    expect(users.appliedUuids()).toEqual([A]);

    api.refuse.clear();
    api.changes.length = 0;
    await users.apply(api);
    expect(api.changes).toEqual([`+${B}`]);
    expect(users.appliedUuids()).toEqual([A, B]);
  });

  it('should re-add every desired user to a core that just (re)started', async () => {
    const { api, users } = setup();
    users.setDesired([A, B]);
    await users.apply(api);
    // The restarted core is a new process: the users added through the old one's API are gone.
    const restarted = new FakeCoreApi();

    await users.coreStarted(restarted);

    expect(restarted.changes).toEqual([`+${A}`, `+${B}`]);
    expect([...restarted.users].sort()).toEqual([A, B]);
  });

  it('should remove a foreign user and ask for a reset when someone else used the API', async () => {
    const { api, users } = setup('xray');
    users.setDesired([A]);
    await users.coreStarted(api);
    api.users.add(STRANGER);

    const findings = await users.audit(api);

    expect(findings).toMatchObject({
      mechanism: 'xray_inbound_users',
      usersSeen: 2,
      foreignRemoved: [STRANGER],
      restored: [],
      reset: 'foreign_users',
    });
    expect(api.users.has(STRANGER)).toBe(false);
  });

  it('should add back a desired user the core lost without asking for a reset', async () => {
    const { api, users } = setup('xray');
    users.setDesired([A, B]);
    await users.coreStarted(api);
    api.users.delete(B);

    const findings = await users.audit(api);

    expect(findings).toMatchObject({ restored: [B], foreignRemoved: [], reset: null });
    expect(api.users.has(B)).toBe(true);
  });

  it('should ask to cut a revoked client still carrying traffic at most once per interval', async () => {
    const { time, api, users } = setup('v2ray');
    users.setDesired([A, B]);
    await users.coreStarted(api);
    api.count(A, 100n, 1_000n);
    users.setDesired([B]);
    await users.apply(api);

    // Nothing moved since the removal: its counters are the baseline.
    expect(await users.audit(api)).toMatchObject({ revokedStillConnected: [], reset: null });
    api.count(A, 150n, 2_000n);
    expect(await users.audit(api)).toMatchObject({
      mechanism: 'v2ray_user_counters',
      // v2ray still counts the removed user: that is not someone else's doing.
      foreignRemoved: [],
      revokedStillConnected: [A],
      reset: 'revoked_client_still_connected',
    });
    await time.advance(CUT_INTERVAL_MS - 1);
    expect(await users.audit(api)).toMatchObject({ revokedStillConnected: [A], reset: null });
    await time.advance(1);
    expect(await users.audit(api)).toMatchObject({ reset: 'revoked_client_still_connected' });
  });

  it('should not excuse a removed user in a core started after the removal', async () => {
    const { api, users } = setup('v2ray');
    users.setDesired([A]);
    await users.coreStarted(api);
    users.setDesired([]);
    await users.apply(api);
    const restarted = new FakeCoreApi();
    await users.coreStarted(restarted);
    // A user with counters in the new core was added by someone else.
    restarted.count(A, 1n, 1n);

    expect(await users.audit(restarted)).toMatchObject({
      foreignRemoved: [A],
      reset: 'foreign_users',
    });
  });
});
