import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Chain } from './chain';
import { DemoWalletError, parseTransferRequest, type DemoWallet } from './demo-wallet';
import { rpcMethods } from './rpc-methods';
import { RpcError } from './rpc-params';

const MAX_BODY_BYTES = 1_000_000;

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new HttpError(413, 'request body too large'));
        request.destroy();
      } else chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'Content-Type': 'application/json' });
  response.end(JSON.stringify(body));
}

/**
 * The HTTP side: JSON-RPC 2.0 on POST / (single and batch requests, as real nodes), GET /health,
 * and the demo wallet's two routes for the portal in the browser (CORS from `allowOrigin`).
 */
export function createHandler(chain: Chain, wallet: DemoWallet, allowOrigin: string) {
  const methods = rpcMethods(chain);

  function call(request: unknown): unknown {
    const { id = null, method, params = [], jsonrpc } = (request ?? {}) as Record<string, unknown>;
    if (jsonrpc !== '2.0' || typeof method !== 'string' || !Array.isArray(params))
      return { jsonrpc: '2.0', error: { code: -32600, message: 'Invalid request' }, id };
    const handler = Object.hasOwn(methods, method) ? methods[method] : undefined;
    if (!handler)
      return { jsonrpc: '2.0', error: { code: -32601, message: 'Method not found' }, id };
    try {
      return { jsonrpc: '2.0', result: handler(params), id };
    } catch (error) {
      const rpc = error instanceof RpcError ? error : new RpcError(-32603, 'Internal error');
      if (!(error instanceof RpcError)) console.error('[devchain]', method, error);
      const body = {
        code: rpc.code,
        message: rpc.message,
        ...(rpc.data ? { data: rpc.data } : {}),
      };
      return { jsonrpc: '2.0', error: body, id };
    }
  }

  async function rpc(request: IncomingMessage, response: ServerResponse): Promise<void> {
    let parsed: unknown;
    try {
      parsed = JSON.parse(await readBody(request));
    } catch (error) {
      if (error instanceof HttpError) throw error;
      sendJson(response, 200, {
        jsonrpc: '2.0',
        error: { code: -32700, message: 'Parse error' },
        id: null,
      });
      return;
    }
    sendJson(response, 200, Array.isArray(parsed) ? parsed.map(call) : call(parsed));
  }

  async function demoWallet(path: string, request: IncomingMessage, response: ServerResponse) {
    if (path === '/demo-wallet' && request.method === 'GET') {
      sendJson(response, 200, {
        address: wallet.address,
        balanceLamports: Number(wallet.balanceLamports()),
        tokens: wallet.tokens(),
      });
      return;
    }
    if (path === '/demo-wallet/pay' && request.method === 'POST') {
      let body: unknown;
      try {
        body = JSON.parse(await readBody(request));
      } catch (error) {
        if (error instanceof HttpError) throw error;
        throw new HttpError(400, 'the body must be JSON: { "url": "solana:..." }');
      }
      const url = (body as { url?: unknown } | null)?.url;
      try {
        sendJson(response, 200, { signature: wallet.pay(parseTransferRequest(url)) });
      } catch (error) {
        if (error instanceof DemoWalletError) throw new HttpError(400, error.message);
        throw error;
      }
      return;
    }
    throw new HttpError(405, 'method not allowed');
  }

  return async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const path = new URL(request.url ?? '/', 'http://devchain').pathname;
    // Real RPC nodes answer browsers too; the demo wallet's routes are called by the portal.
    response.setHeader('Access-Control-Allow-Origin', allowOrigin);
    response.setHeader('Vary', 'Origin');
    try {
      if (request.method === 'OPTIONS') {
        response.writeHead(204, {
          'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
          'Access-Control-Allow-Headers': 'Content-Type, solana-client',
          'Access-Control-Max-Age': '600',
        });
        response.end();
      } else if (path === '/demo-wallet' || path === '/demo-wallet/pay') {
        await demoWallet(path, request, response);
      } else if (path === '/health' && request.method === 'GET') {
        response.writeHead(200, { 'Content-Type': 'text/plain' });
        response.end('ok');
      } else if (path === '/' && request.method === 'POST') {
        await rpc(request, response);
      } else throw new HttpError(404, 'not found');
    } catch (error) {
      const http = error instanceof HttpError ? error : new HttpError(500, 'internal error');
      if (!(error instanceof HttpError)) console.error('[devchain]', error);
      if (!response.headersSent) sendJson(response, http.status, { error: http.message });
    }
  };
}
