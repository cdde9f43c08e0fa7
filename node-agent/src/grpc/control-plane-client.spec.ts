import { AgentError } from '../errors';
import { ControlPlaneClient, isLoopback, parseHostPort } from './control-plane-client';

describe('control plane client', () => {
  it('should parse host:port and [v6]:port and refuse anything else', () => {
    expect(parseHostPort('cp.example.com:50051')).toEqual({ host: 'cp.example.com', port: 50051 });
    expect(parseHostPort('[::1]:7000')).toEqual({ host: '::1', port: 7000 });
    expect(parseHostPort('https://cp.example.com')).toBeNull();
    expect(parseHostPort('cp:99999')).toBeNull();
  });

  it('should treat only loopback addresses as loopback', () => {
    expect(['127.0.0.1', '127.1.2.3', 'localhost', '::1'].every(isLoopback)).toBe(true);
    expect(['10.0.0.1', 'cp.example.com', '0.0.0.0'].some(isLoopback)).toBe(false);
  });

  it('should refuse plaintext to a non-loopback host unless insecure was asked for', () => {
    expect(() => new ControlPlaneClient({ target: 'cp.example.com:50051', tls: false })).toThrow(
      AgentError,
    );
    new ControlPlaneClient({ target: 'cp.example.com:50051', tls: false, insecure: true }).close();
    new ControlPlaneClient({ target: '127.0.0.1:50051', tls: false }).close();
  });

  it('should report an unreachable control plane without sending an RPC', async () => {
    const client = new ControlPlaneClient({ target: '127.0.0.1:1', tls: false });
    const result = await client.checkConnectivity(300);
    client.close();
    expect(result.reachable).toBe(false);
  });
});
