import dgram from 'node:dgram';

/**
 * A DNS server on loopback for the node's core, so no lookup in a test leaves the machine. It
 * answers A questions from `answer(name, count)` (count: how many A questions for that name so
 * far, from 1) with TTL 0, the rebinding attacker's choice; AAAA and unknown names get an empty
 * answer.
 */
export interface TestDnsServer {
  port: number;
  /** A questions asked for a name so far. */
  queries(name: string): number;
  close(): Promise<void>;
}

export async function startTestDnsServer(
  answer: (name: string, count: number) => string | null,
): Promise<TestDnsServer> {
  const counts = new Map<string, number>();
  const socket = dgram.createSocket('udp4');
  socket.on('message', (message, remote) => {
    const labels: string[] = [];
    let offset = 12;
    while (offset < message.length && message[offset] !== 0) {
      const length = message[offset]!;
      labels.push(message.toString('latin1', offset + 1, offset + 1 + length));
      offset += length + 1;
    }
    const name = labels.join('.').toLowerCase();
    const qtype = message.readUInt16BE(offset + 1);
    const question = message.subarray(12, offset + 5);
    let address: string | null = null;
    if (qtype === 1) {
      const count = (counts.get(name) ?? 0) + 1;
      counts.set(name, count);
      address = answer(name, count);
    }
    const header = Buffer.from(message.subarray(0, 12));
    header.writeUInt16BE(0x8180, 2);
    header.writeUInt16BE(1, 4);
    header.writeUInt16BE(address ? 1 : 0, 6);
    header.writeUInt32BE(0, 8);
    const parts = [header, question];
    if (address) {
      const record = Buffer.alloc(16);
      record.writeUInt16BE(0xc00c, 0); // the name, by pointer to the question
      record.writeUInt16BE(1, 2); // A
      record.writeUInt16BE(1, 4); // IN
      record.writeUInt32BE(0, 6); // TTL 0
      record.writeUInt16BE(4, 10);
      Buffer.from(address.split('.').map(Number)).copy(record, 12);
      parts.push(record);
    }
    socket.send(Buffer.concat(parts), remote.port, remote.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return {
    port: socket.address().port,
    queries: (name) => counts.get(name) ?? 0,
    close: () => new Promise((resolve) => socket.close(() => resolve())),
  };
}
