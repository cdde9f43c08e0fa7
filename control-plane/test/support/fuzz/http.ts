import { Agent, request } from 'node:http';

export interface RawResponse {
  status: number;
  body: string;
}

/**
 * Sends one request exactly as given (path, header bytes and body untouched), on loopback:
 * supertest and fetch would encode, validate or re-serialize what the fuzz suite means to send.
 * Status 0: the server cut the connection without an answer; -1: Node would not send it.
 */
export class RawHttpClient {
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 4 });

  constructor(private readonly port: number) {}

  send(
    method: string,
    target: string,
    headers: Record<string, string>,
    body: Buffer | null,
  ): Promise<RawResponse> {
    return new Promise((resolve) => {
      let outgoing: ReturnType<typeof request>;
      try {
        outgoing = request(
          {
            host: '127.0.0.1',
            port: this.port,
            method: method.toUpperCase(),
            path: target,
            headers: { ...headers, ...(body ? { 'content-length': String(body.length) } : {}) },
            agent: this.agent,
          },
          (response) => {
            const chunks: Buffer[] = [];
            response.on('data', (chunk: Buffer) => chunks.push(chunk));
            response.on('end', () =>
              resolve({
                status: response.statusCode ?? 0,
                body: Buffer.concat(chunks).toString('utf8'),
              }),
            );
            response.on('error', (error) => resolve({ status: 0, body: String(error) }));
          },
        );
      } catch (error) {
        // Node's client refused to send it (e.g. a header byte it does not allow).
        resolve({ status: -1, body: String(error) });
        return;
      }
      outgoing.on('error', (error) => resolve({ status: 0, body: String(error) }));
      outgoing.end(body ?? undefined);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}
