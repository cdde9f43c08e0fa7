import net from 'node:net';
import { chooseRequestedPort, probeListenPort, type PortAvailability } from './enroll-port';

function listening(host: string): Promise<net.Server> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, host, () => resolve(server));
  });
}

function portOf(server: net.Server): number {
  return (server.address() as net.AddressInfo).port;
}

describe('probeListenPort', () => {
  it('should say in-use when something listens on the port on loopback only', async () => {
    const server = await listening('127.0.0.1');
    try {
      await expect(probeListenPort(portOf(server))).resolves.toBe('in-use');
    } finally {
      server.close();
    }
  });

  it('should say free when nothing listens on the port', async () => {
    const server = await listening('127.0.0.1');
    const port = portOf(server);
    await new Promise((resolve) => server.close(resolve));
    await expect(probeListenPort(port)).resolves.toBe('free');
  });
});

describe('chooseRequestedPort', () => {
  const probeSaying = (answer: PortAvailability) => {
    const asked: number[] = [];
    const probe = (port: number) => {
      asked.push(port);
      return Promise.resolve(answer);
    };
    return { probe, asked };
  };

  it('should ask for 443 when the machine has it free', async () => {
    const { probe, asked } = probeSaying('free');
    await expect(chooseRequestedPort(undefined, probe)).resolves.toEqual({
      requestedPort: 443,
      note: null,
    });
    expect(asked).toEqual([443]);
  });

  it.each(['in-use', 'not-permitted'] as const)(
    "should ask for the machine's own port when 443 is %s, and say why",
    async (answer) => {
      const { probe } = probeSaying(answer);
      const choice = await chooseRequestedPort(undefined, probe);
      expect(choice.requestedPort).toBe(0);
      expect(choice.note).toContain('--public-port 443');
    },
  );

  it("should ask for the operator's port without probing 443", async () => {
    const { probe, asked } = probeSaying('in-use');
    await expect(chooseRequestedPort(8443, probe)).resolves.toEqual({
      requestedPort: 8443,
      note: null,
    });
    expect(asked).toEqual([]);
  });
});
