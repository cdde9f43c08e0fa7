import { accountRoom, socketToken } from './realtime.gateway';

describe('the session a socket presents', () => {
  const token = 'a'.repeat(43);
  it('should take the bearer token of the handshake first', () => {
    expect(
      socketToken({ auth: { token }, headers: { cookie: `scn_session=${'b'.repeat(43)}` } }),
    ).toBe(token);
  });

  it('should take the session cookie among others when there is no bearer token', () => {
    expect(socketToken({ headers: { cookie: `theme=dark; scn_session=${token}; x=1` } })).toBe(
      token,
    );
    expect(socketToken({ auth: { token: '' }, headers: { cookie: `scn_session=${token}` } })).toBe(
      token,
    );
  });

  it('should find none in an empty, foreign or broken handshake', () => {
    expect(socketToken({ headers: {} })).toBeNull();
    expect(socketToken({ auth: { token: 42 }, headers: { cookie: 'scn_sessionx=1' } })).toBeNull();
    expect(socketToken({ headers: { cookie: 'scn_session=' } })).toBeNull();
    expect(socketToken({ headers: { cookie: 'scn_session=%E0%A4%A' } })).toBeNull();
  });

  it('should name one room per account', () => {
    expect(accountRoom('0f3c')).toBe('account:0f3c');
  });
});
