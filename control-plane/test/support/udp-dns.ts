import dgram from 'node:dgram';

/**
 * A DNS server on a test address that answers every A question with one address and records
 * who asked: a test of a client's DNS checks that the question arrived from the proxy server's
 * side only, never from the client's machine directly.
 */
export interface RecordingDnsServer {
  address: string;
  port: number;
  /** The source addresses of the A questions for `name`, in order. */
  askedBy(name: string): string[];
  close(): Promise<void>;
}

export async function startRecordingDnsServer(
  address: string,
  answer: string,
): Promise<RecordingDnsServer> {
  const asked = new Map<string, string[]>();
  const socket = dgram.createSocket('udp4');
  socket.on('message', (message, remote) => {
    const { name, qtype, end } = readQuestion(message);
    if (qtype === 1) asked.set(name, [...(asked.get(name) ?? []), remote.address]);
    const header = Buffer.from(message.subarray(0, 12));
    header.writeUInt16BE(0x8180, 2);
    header.writeUInt16BE(1, 4);
    header.writeUInt16BE(qtype === 1 ? 1 : 0, 6);
    header.writeUInt32BE(0, 8);
    const parts = [header, message.subarray(12, end)];
    if (qtype === 1) {
      const record = Buffer.alloc(16);
      record.writeUInt16BE(0xc00c, 0); // the name, by pointer to the question
      record.writeUInt16BE(1, 2); // A
      record.writeUInt16BE(1, 4); // IN
      record.writeUInt32BE(60, 6);
      record.writeUInt16BE(4, 10);
      Buffer.from(answer.split('.').map(Number)).copy(record, 12);
      parts.push(record);
    }
    socket.send(Buffer.concat(parts), remote.port, remote.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, address, resolve));
  return {
    address,
    port: socket.address().port,
    askedBy: (name) => asked.get(name) ?? [],
    close: () => new Promise((resolve) => socket.close(() => resolve())),
  };
}

/** The question of a DNS message: its name, type, and where the question section ends. */
export function readQuestion(message: Buffer): { name: string; qtype: number; end: number } {
  const labels: string[] = [];
  let offset = 12;
  while (offset < message.length && message[offset] !== 0) {
    const length = message[offset]!;
    labels.push(message.toString('latin1', offset + 1, offset + 1 + length));
    offset += length + 1;
  }
  return {
    name: labels.join('.').toLowerCase(),
    qtype: message.readUInt16BE(offset + 1),
    end: offset + 5,
  };
}

/** A recursive A question for `name` with this id. */
export function aQuestion(name: string, id: number): Buffer {
  const header = Buffer.alloc(12);
  header.writeUInt16BE(id, 0);
  header.writeUInt16BE(0x0100, 2); // recursion desired
  header.writeUInt16BE(1, 4);
  const labels = name.split('.').map((label) => {
    const bytes = Buffer.from(label, 'latin1');
    return Buffer.concat([Buffer.from([bytes.length]), bytes]);
  });
  return Buffer.concat([header, ...labels, Buffer.from([0, 0, 1, 0, 1])]);
}

/** The IPv4 addresses in the answer section of a response (A records only). */
export function aAnswers(message: Buffer): string[] {
  const count = message.readUInt16BE(6);
  let offset = readQuestion(message).end;
  const found: string[] = [];
  for (let i = 0; i < count && offset < message.length; i += 1) {
    // The name: a pointer (2 bytes) or labels.
    if ((message[offset]! & 0xc0) === 0xc0) offset += 2;
    else {
      while (message[offset] !== 0) offset += message[offset]! + 1;
      offset += 1;
    }
    const type = message.readUInt16BE(offset);
    const length = message.readUInt16BE(offset + 8);
    if (type === 1 && length === 4)
      found.push([...message.subarray(offset + 10, offset + 14)].join('.'));
    offset += 10 + length;
  }
  return found;
}
