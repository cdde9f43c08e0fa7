import type * as grpc from '@grpc/grpc-js';
import type { AgentServiceClient, ClientSet__Output } from '@scn/proto';
import { type BackoffOptions, backoffDelay, realTimers, type Timers } from '../backoff';
import { type Endpoint, type EndpointRotation, movesOn } from './control-plane-endpoints';

export interface WatchOptions {
  backoff?: BackoffOptions;
  timers?: Timers;
  /** Each stream failure, before the reconnect (for logs). */
  onError?: (error: Error, retryInMs: number) => void;
}

export interface ClientSetWatch {
  stop(): void;
}

/** What the watch needs of the client: where to connect, over which channel, as whom. */
export interface WatchSource {
  rotation: EndpointRotation;
  channelFor(endpoint: Endpoint): AgentServiceClient;
  metadata(): grpc.Metadata;
}

const WATCH_BACKOFF: BackoffOptions = { initialMs: 1_000, maxMs: 60_000 };

/**
 * Follows the WatchClients stream: calls `onSet` with each set newer than the last one seen and
 * reconnects whenever the stream ends, until stop(). `onSet` runs one at a time, in order.
 *
 * - A stream that fails because its endpoint is gone moves the agent to the next endpoint; each
 *   round of endpoints shares one backoff step, so the next replica is tried within a second or
 *   two while a control plane that is down altogether is not hammered.
 * - Any contact with the control plane (a report answered, a message on this stream) resets the
 *   backoff, and a reconnect waiting out a long delay goes at once: the control plane is back.
 * - When the agent moves to another endpoint for another reason (a report timed out), the stream
 *   follows it rather than stay on a replica that may be hung.
 */
export function watchClientSets(
  source: WatchSource,
  knownVersion: string,
  onSet: (set: ClientSet__Output) => Promise<void> | void,
  options: WatchOptions = {},
): ClientSetWatch {
  const { rotation } = source;
  const timers = options.timers ?? realTimers;
  const backoff = options.backoff ?? WATCH_BACKOFF;
  let known = BigInt(knownVersion);
  let applied = known > 0n;
  let attempt = 0;
  let stopped = false;
  let connecting = false;
  let call: grpc.ClientReadableStream<ClientSet__Output> | null = null;
  let endpoint: Endpoint | null = null;
  let retry: unknown = null;
  let applying: Promise<void> = Promise.resolve();

  const reconnect = (error: Error) => {
    if (stopped || retry !== null) return;
    const failedAt = endpoint;
    call = null;
    endpoint = null;
    if (failedAt && movesOn(error)) rotation.failed(failedAt);
    const delay = backoffDelay(Math.floor(attempt / rotation.size), backoff);
    attempt += 1;
    options.onError?.(error, delay);
    retry = timers.setTimeout(() => {
      retry = null;
      open();
    }, delay);
  };
  const open = () => void connect().catch((error: Error) => reconnect(error));

  const connect = async () => {
    if (stopped || connecting || call) return;
    connecting = true;
    let target: Endpoint;
    try {
      target = await rotation.current();
    } finally {
      connecting = false;
    }
    if (stopped || call) return;
    const stream = source
      .channelFor(target)
      .WatchClients({ knownVersion: known.toString() }, source.metadata());
    call = stream;
    endpoint = target;
    stream.on('data', (set: ClientSet__Output) => {
      if (stream !== call) return;
      attempt = 0;
      rotation.contact(target);
      const version = BigInt(set.version);
      // A set it holds is skipped, except the first one at version 0 while it holds none: a
      // server without clients still has the vantage points' UUID to admit.
      if (version < known || (version === known && (version !== 0n || applied))) return;
      applied = true;
      known = version;
      applying = applying.then(() => onSet(set)).catch(() => undefined);
    });
    stream.on('error', (error: grpc.ServiceError) => {
      if (stream !== call) return;
      reconnect(error);
    });
    stream.on('end', () => {
      if (stream !== call) return;
      reconnect(new Error('WatchClients stream ended'));
    });
  };

  const offContact = rotation.onContact(() => {
    attempt = 0;
    if (retry === null || stopped) return;
    timers.clearTimeout(retry);
    retry = null;
    open();
  });
  const offMove = rotation.onMove((_from, to) => {
    if (stopped || !call || endpoint?.target === to.target) return;
    const old = call;
    call = null;
    endpoint = null;
    old.cancel();
    open();
  });

  open();
  return {
    stop: () => {
      stopped = true;
      offContact();
      offMove();
      if (retry !== null) timers.clearTimeout(retry);
      const current = call;
      call = null;
      current?.cancel();
    },
  };
}
