import type { MarketServer } from '@scn/proto';
import type { MouseEvent } from 'react';
import { Button } from '../../../components/ui/button';
import { formatUptime, pingTone, reliabilityTone } from '../../../lib/server-display';
import {
  type CardState,
  type MarketViewer,
  canToggleSelection,
  connectLabel,
  displayReliability,
  isOwnServer,
  isServerDisabled,
  priceLabel,
  staggerDelaySeconds,
} from '../market-rules';
import { CountryFlag } from './country-flag';
import '../market.css';

export interface ServerCardProps {
  server: MarketServer;
  viewer: MarketViewer | null;
  state: CardState;
  /** Position on the page, for the staggered entrance (spec 01 §9). */
  index: number;
  onToggle: (server: MarketServer) => void;
  onSignIn: () => void;
  /** spec 01 §2: nodes get a Promote button on their own servers. */
  onPromote?: (server: MarketServer) => void;
}

/** spec 01 §2 "Server card". */
export function ServerCard({
  server,
  viewer,
  state,
  index,
  onToggle,
  onSignIn,
  onPromote,
}: ServerCardProps) {
  const disabled = isServerDisabled(server);
  const own = isOwnServer(server, viewer);
  const toggleable = canToggleSelection(server, state, viewer);
  const reliability = displayReliability(server);
  const titleId = `market-server-${server.id}`;
  const place = server.isAdminServer ? server.location : server.location || server.country;

  // spec 01 §2: a click anywhere on the card toggles it (the button is the keyboard's way).
  const onCardClick = (event: MouseEvent<HTMLElement>) => {
    if ((event.target as HTMLElement).closest('button, a')) return;
    if (toggleable) onToggle(server);
  };

  const classes = [
    'card',
    'market-card',
    state.selected ? 'market-card--selected' : '',
    disabled ? 'market-card--disabled' : '',
    toggleable ? 'market-card--selectable' : '',
  ].filter(Boolean);

  return (
    <article
      className={classes.join(' ')}
      aria-labelledby={titleId}
      data-testid="market-server-card"
      data-server-id={server.id}
      data-selected={state.selected ? 'true' : 'false'}
      style={{ animationDelay: `${staggerDelaySeconds(index)}s` }}
      onClick={onCardClick}
    >
      <header className="market-card__header">
        <h3 id={titleId} className="market-card__name" data-testid="market-card-name">
          {server.name}
        </h3>
        <div className="market-card__badges" data-testid="market-card-badges">
          {server.isPromoted && <span className="badge badge--warning">Promoted</span>}
          {server.isSubscribed && <span className="badge badge--success">Subscribed</span>}
          {server.sharedCredentials && (
            // issue 15 §4: no agent, so every client gets the operator's one UUID.
            <span
              className="badge"
              data-testid="market-card-shared"
              title="Free server added without the agent: every client shares the operator's credentials, which cannot be revoked per client."
            >
              Shared credentials
            </span>
          )}
          {own ? (
            <span className="badge badge--info">Your Server</span>
          ) : (
            state.selected && <span className="badge badge--info">Selected</span>
          )}
        </div>
      </header>

      <p className="market-card__place small muted" data-testid="market-card-country">
        <CountryFlag code={server.countryCode} />
        <span className="market-card__code">{server.countryCode ?? server.country}</span>
        {place && place !== server.countryCode && (
          <>
            <span aria-hidden="true">·</span>
            <span>{place}</span>
          </>
        )}
      </p>

      <dl className="market-card__stats">
        <div>
          <dt>Uptime</dt>
          <dd data-testid="market-card-uptime">{formatUptime(server.uptime)}</dd>
        </div>
        <div>
          <dt>Reliability</dt>
          <dd
            className={`market-tone market-tone--${reliabilityTone(reliability)}`}
            data-testid="market-card-reliability"
          >
            {reliability}%
          </dd>
        </div>
        <div>
          <dt>Ping</dt>
          <dd
            className={
              server.ping === null ? 'muted' : `market-tone market-tone--${pingTone(server.ping)}`
            }
            data-testid="market-card-ping"
          >
            {server.ping === null ? 'n/a' : `${server.ping} ms`}
          </dd>
        </div>
        <div>
          <dt>Price/mo</dt>
          <dd data-testid="market-card-price">{priceLabel(server.priceMicro)}</dd>
        </div>
      </dl>

      <footer className="market-card__action">
        <CardAction
          server={server}
          viewer={viewer}
          state={state}
          toggleable={toggleable}
          onToggle={onToggle}
          onSignIn={onSignIn}
          onPromote={own && !server.isAdminServer ? onPromote : undefined}
        />
      </footer>
    </article>
  );
}

interface CardActionProps {
  server: MarketServer;
  viewer: MarketViewer | null;
  state: CardState;
  toggleable: boolean;
  onToggle: (server: MarketServer) => void;
  onSignIn: () => void;
  onPromote?: (server: MarketServer) => void;
}

/** spec 01 §2: clients get Connect, nodes the active connections, visitors a sign-in prompt. */
function CardAction({
  server,
  viewer,
  state,
  toggleable,
  onToggle,
  onSignIn,
  onPromote,
}: CardActionProps) {
  if (!viewer) {
    return (
      <Button variant="secondary" size="sm" block onClick={onSignIn}>
        Sign in as client to connect
      </Button>
    );
  }
  if (viewer.userType === 'node') {
    const count = server.activeConnections;
    const connections = (
      <p className="market-card__connections small" data-testid="market-card-connections">
        <strong>{count}</strong> active connection{count === 1 ? '' : 's'}
      </p>
    );
    if (!onPromote) return connections;
    return (
      <div className="market-card__own">
        {connections}
        <Button
          variant="primary"
          size="sm"
          onClick={() => onPromote(server)}
          aria-label={`Promote ${server.name}`}
          data-testid="market-promote"
        >
          Promote
        </Button>
      </div>
    );
  }
  const label = connectLabel(server, state);
  return (
    <Button
      variant={state.selected ? 'secondary' : 'primary'}
      size="sm"
      block
      disabled={!toggleable}
      aria-pressed={state.selected}
      onClick={() => onToggle(server)}
      data-testid="market-connect"
    >
      {label}
    </Button>
  );
}
