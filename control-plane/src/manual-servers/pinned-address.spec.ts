import { CidrList } from '../common/address-policy';
import { pinAddress, type Resolver } from './pinned-address';

const policy = { allowed: new CidrList([]), own: new Set(['8.8.4.4']) };
const answers =
  (...addresses: string[]): Resolver =>
  async () =>
    addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));

describe('pinAddress', () => {
  it('should pin the first address when every resolved address is public', async () => {
    expect(await pinAddress('vpn.example', policy, answers('1.1.1.1', '2606:4700::1111'))).toEqual({
      ok: true,
      address: '1.1.1.1',
      family: 4,
      addresses: ['1.1.1.1', '2606:4700::1111'],
    });
  });

  it('should refuse a name when any of its addresses is not public, whatever the order', async () => {
    expect(await pinAddress('mixed.example', policy, answers('1.1.1.1', '10.0.0.5'))).toEqual({
      ok: false,
      reason: 'refused',
      address: '10.0.0.5',
      kind: 'private',
    });
    expect(await pinAddress('meta.example', policy, answers('::ffff:169.254.169.254'))).toEqual({
      ok: false,
      reason: 'refused',
      address: '169.254.169.254',
      kind: 'link_local',
    });
    expect(await pinAddress('self.example', policy, answers('8.8.4.4'))).toMatchObject({
      kind: 'own',
    });
  });

  it('should call a name that resolves to nothing, or fails to resolve, unresolvable', async () => {
    expect(await pinAddress('empty.example', policy, answers())).toEqual({
      ok: false,
      reason: 'unresolvable',
    });
    const failing: Resolver = () => Promise.reject(new Error('ENOTFOUND'));
    expect(await pinAddress('gone.example', policy, failing)).toEqual({
      ok: false,
      reason: 'unresolvable',
    });
  });

  it('should judge IP literals without resolving them', async () => {
    const never: Resolver = () => Promise.reject(new Error('must not resolve a literal'));
    expect(await pinAddress('[2606:4700::1111]', policy, never)).toMatchObject({ ok: true });
    expect(await pinAddress('127.0.0.1', policy, never)).toMatchObject({ kind: 'loopback' });
  });
});
