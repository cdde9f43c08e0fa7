import type { IncomingMessage } from 'node:http';
import type { INestApplicationContext } from '@nestjs/common';
import { IoAdapter } from '@nestjs/platform-socket.io';
import type { Server, ServerOptions } from 'socket.io';
import type { AppConfig } from '../config/app-config';

/** The portal's dev server (portal/vite.config.ts), which proxies /socket.io in development. */
const VITE_DEV_PORT = 5173;

/**
 * The origins whose pages may open a realtime connection: the portal's own (PUBLIC_URL) and,
 * in development, the Vite dev server's and the loopback spellings of both (a developer may
 * open http://127.0.0.1:5050 as well as http://localhost:5050).
 */
export function realtimeOrigins(config: Pick<AppConfig, 'publicUrl' | 'nodeEnv'>): Set<string> {
  const publicOrigin = new URL(config.publicUrl).origin;
  const origins = new Set([publicOrigin]);
  if (config.nodeEnv === 'development') {
    const ports = [new URL(publicOrigin).port || '80', String(VITE_DEV_PORT)];
    for (const host of ['localhost', '127.0.0.1', '[::1]']) {
      for (const port of ports) origins.add(`http://${host}:${port}`);
    }
  }
  return origins;
}

/**
 * socket.io with an Origin check at the handshake (polling and WebSocket alike): a page of any
 * other site is refused (403), so it cannot open a connection in a visitor's browser
 * (cross-site WebSocket hijacking). A request without Origin is let through: browsers always
 * send one with a cross-site request and a WebSocket, and leave it out only of same-origin
 * polling requests; a program that is not a browser can send any Origin it likes anyway.
 */
export class OriginCheckedIoAdapter extends IoAdapter {
  private readonly origins: ReadonlySet<string>;

  constructor(app: INestApplicationContext, origins: ReadonlySet<string>) {
    super(app);
    this.origins = origins;
  }

  override createIOServer(port: number, options?: ServerOptions): Server {
    return super.createIOServer(port, {
      ...options,
      allowRequest: (
        request: IncomingMessage,
        callback: (err: string | null | undefined, ok: boolean) => void,
      ) => {
        const origin = request.headers.origin;
        if (origin === undefined || this.origins.has(origin)) callback(null, true);
        else callback('Origin not allowed', false);
      },
    }) as Server;
  }
}
