import { AgentError } from '../errors';
import { LETS_ENCRYPT_DIRECTORY } from '../certificates/acme-settings';
import { acmeSettingsFromFlags } from './enroll-certificate';

describe('acmeSettingsFromFlags', () => {
  const remote = { server: 'scn.example.net:50051' };
  const local = { server: '127.0.0.1:50051' };

  it("should ask Let's Encrypt on port 80 by default, and never from a loopback control plane", () => {
    expect(acmeSettingsFromFlags(remote, 'tls')).toEqual({
      enabled: true,
      directoryUrl: LETS_ENCRYPT_DIRECTORY,
      httpPort: 80,
    });
    expect(acmeSettingsFromFlags(local, 'tls')).toMatchObject({ enabled: false });
  });

  it('should take a directory URL, its CA file, port, e-mail and the domain', () => {
    expect(
      acmeSettingsFromFlags(
        {
          ...local,
          acme: 'https://127.0.0.1:14000/dir',
          acmeCaFile: 'pebble.pem',
          acmeHttpPort: 5002,
          acmeEmail: 'ops@example.net',
          domain: 'vpn.example.net',
        },
        'tls',
      ),
    ).toEqual({
      enabled: true,
      directoryUrl: 'https://127.0.0.1:14000/dir',
      caFile: expect.stringMatching(/\/pebble\.pem$/),
      httpPort: 5002,
      email: 'ops@example.net',
      domain: 'vpn.example.net',
    });
    expect(acmeSettingsFromFlags({ ...remote, acme: 'off' }, 'tls').enabled).toBe(false);
    expect(acmeSettingsFromFlags({ ...remote, acme: 'letsencrypt' }, 'tls').directoryUrl).toBe(
      LETS_ENCRYPT_DIRECTORY,
    );
  });

  it("should keep the operator's certificate away from ACME, and refuse contradictions", () => {
    expect(acmeSettingsFromFlags({ ...remote, certificateFile: 'c.pem' }, 'tls').enabled).toBe(
      false,
    );
    expect(() =>
      acmeSettingsFromFlags({ ...remote, certificateFile: 'c.pem', acme: 'letsencrypt' }, 'tls'),
    ).toThrow(AgentError);
    expect(() => acmeSettingsFromFlags({ ...local, domain: 'vpn.example.net' }, 'tls')).toThrow(
      /--domain needs --acme/,
    );
    expect(() => acmeSettingsFromFlags({ ...remote, domain: 'vpn.example.net' }, 'none')).toThrow(
      /not --security none/,
    );
  });
});
