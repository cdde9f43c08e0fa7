import type { MarketServer } from '@scn/proto';
import { formatMicroSsl } from '../../../lib/money';
import type { MouseEvent } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { formatNumber } from '../../../lib/i18n/format';
import { useT } from '../../../lib/i18n/i18n';
import { reachabilityTone } from '../../../lib/reachability-display';
import { pingTone, reliabilityTone, uptimeParts } from '../../../lib/server-display';
import {
  type CardState,
  type MarketViewer,
  canToggleSelection,
  connectAction,
  cooldownSeconds,
  displayReliability,
  isOwnServer,
  isServerDisabled,
  staggerDelaySeconds,
} from '../market-rules';
import { CountryFlag } from '../../../components/ui/country-flag';
import '../../../components/reachability/reachability.css';
import '../market.css';

export interface ServerCardProps {
  server: MarketServer;
  viewer: MarketViewer | null;
  state: CardState;
  /** Position on the page, for the staggered entrance (docs/product/constants.md#market-prices-and-limits). */
  index: number;
  onToggle: (server: MarketServer) => void;
  onSignIn: () => void;
  /** docs/product/screens.md#the-shell-and-the-market-screens: nodes get a Promote button on their own servers. */
  onPromote?: (server: MarketServer) => void;
  /** "Where it works": the server's table of countries and networks. */
  onShowReachability?: (server: MarketServer) => void;
}

/** docs/product/screens.md#the-shell-and-the-market-screens "Server card". */
export function ServerCard({
  server,
  viewer,
  state,
  index,
  onToggle,
  onSignIn,
  onPromote,
  onShowReachability,
}: ServerCardProps) {
  const { t, locale } = useT();
  const disabled = isServerDisabled(server);
  const uptime = uptimeParts(server.uptime);
  const own = isOwnServer(server, viewer);
  const toggleable = canToggleSelection(server, state, viewer);
  const reliability = displayReliability(server);
  const titleId = `market-server-${server.id}`;
  const place = server.isAdminServer ? server.location : server.location || server.country;

  // docs/product/screens.md#the-shell-and-the-market-screens: a click anywhere on the card toggles it (the button is the keyboard's way).
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
          {server.isPromoted && (
            <span className="badge badge--warning">{t('market.card.promoted')}</span>
          )}
          {server.isSubscribed && (
            <span className="badge badge--success">{t('market.card.subscribed')}</span>
          )}
          {server.sharedCredentials && (
            // No agent, so every client gets the operator's one UUID.
            <span
              className="badge"
              data-testid="market-card-shared"
              title={t('market.card.sharedHint')}
            >
              {t('market.card.shared')}
            </span>
          )}
          {own ? (
            <span className="badge badge--info">{t('market.card.yourServer')}</span>
          ) : (
            state.selected && <span className="badge badge--info">{t('market.card.selected')}</span>
          )}
        </div>
      </header>

      <p className="market-card__place small muted" data-testid="market-card-country">
        <CountryFlag code={server.countryCode} />
        <bdi className="market-card__code">{server.countryCode ?? server.country}</bdi>
        {place && place !== server.countryCode && (
          <>
            <span aria-hidden="true">·</span>
            <bdi>{place}</bdi>
          </>
        )}
      </p>

      <dl className="market-card__stats">
        <div>
          <dt>{t('market.card.uptime')}</dt>
          <dd data-testid="market-card-uptime">
            {uptime
              ? t('market.card.uptimeValue', {
                  days: formatNumber(uptime.days, locale),
                  hours: formatNumber(uptime.hours, locale),
                })
              : t('market.card.uptimeNew')}
          </dd>
        </div>
        <div>
          <dt>{t('market.card.reliability')}</dt>
          <dd
            className={`market-tone market-tone--${reliabilityTone(reliability)}`}
            data-testid="market-card-reliability"
          >
            {formatNumber(reliability / 100, locale, { style: 'percent' })}
          </dd>
        </div>
        <div>
          <dt>{t('market.card.ping')}</dt>
          <dd
            className={
              server.ping === null ? 'muted' : `market-tone market-tone--${pingTone(server.ping)}`
            }
            data-testid="market-card-ping"
          >
            {server.ping === null
              ? t('market.card.notAvailable')
              : t('market.card.pingValue', { ms: formatNumber(server.ping, locale) })}
          </dd>
        </div>
        <div>
          <dt>{t('market.card.price')}</dt>
          <dd data-testid="market-card-price">
            {BigInt(server.priceMicro) === 0n
              ? t('market.card.free')
              : formatMicroSsl(server.priceMicro, locale)}
          </dd>
        </div>
      </dl>

      <ReachabilityLine server={server} onShow={onShowReachability} />

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

/** docs/product/screens.md#the-shell-and-the-market-screens: clients get Connect, nodes the active connections, visitors a sign-in prompt. */
function CardAction({
  server,
  viewer,
  state,
  toggleable,
  onToggle,
  onSignIn,
  onPromote,
}: CardActionProps) {
  const { t, locale } = useT();
  if (!viewer) {
    return (
      <Button variant="secondary" size="sm" block onClick={onSignIn}>
        {t('market.card.signInToConnect')}
      </Button>
    );
  }
  if (viewer.userType === 'node') {
    const count = server.activeConnections;
    const connections = (
      <p className="market-card__connections small" data-testid="market-card-connections">
        <Trans
          i18nKey="market.card.connections"
          values={{ count }}
          components={{ strong: <strong /> }}
        />
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
          aria-label={t('market.card.promoteServer', { name: server.name })}
          data-testid="market-promote"
        >
          {t('market.card.promote')}
        </Button>
      </div>
    );
  }
  const action = connectAction(server, state);
  const label =
    action === 'cooldown'
      ? t('market.card.action.cooldown', {
          seconds: formatNumber(cooldownSeconds(state.processingSeconds), locale),
        })
      : t(`market.card.action.${action}`);
  const hintId = `market-cooldown-${server.id}`;
  const warningId = `market-blocked-${server.id}`;
  const describedBy = [
    action === 'cooldown' ? hintId : null,
    server.reachability === 'blocked' && action !== 'subscribed' ? warningId : null,
  ].filter(Boolean);
  return (
    <>
      <Button
        variant={state.selected ? 'secondary' : 'primary'}
        size="sm"
        block
        disabled={!toggleable}
        aria-pressed={state.selected}
        aria-describedby={describedBy.length > 0 ? describedBy.join(' ') : undefined}
        onClick={() => onToggle(server)}
        data-testid="market-connect"
      >
        {label}
      </Button>
      {action === 'cooldown' && <CooldownHint id={hintId} selected={state.selected} />}
      {server.reachability === 'blocked' && action !== 'subscribed' && (
        // The card and its button stay: the visitor decides, warned before they buy.
        <p
          id={warningId}
          className="market-card__blocked small"
          role="note"
          data-testid="market-blocked-warning"
        >
          {t('reach.card.blockedWarning')}
        </p>
      )}
    </>
  );
}

/**
 * Whether the server works from the visitor's own network (docs/reachability.md), and the way
 * to its table. "Not measured" is said quietly: most servers are, and that is no alarm.
 */
function ReachabilityLine({
  server,
  onShow,
}: {
  server: MarketServer;
  onShow?: (server: MarketServer) => void;
}) {
  const { t } = useT();
  // A control plane from before reachability sends no state: say nothing rather than guess.
  const state = server.reachability;
  if (!state) return null;
  return (
    <div className="market-card__reach">
      <span
        className={`reach-badge reach-state reach-state--${reachabilityTone(state)}`}
        data-testid="market-card-reachability"
        data-state={state}
      >
        {t(`reach.badge.${state}`)}
      </span>
      {onShow && (
        <button
          type="button"
          className="market-card__reach-link"
          onClick={() => onShow(server)}
          aria-label={t('reach.card.whereItWorksFor', { name: server.name })}
          data-testid="market-where-it-works"
        >
          {t('reach.card.whereItWorks')}
        </button>
      )}
    </div>
  );
}

/**
 * docs/product/states.md#market-and-account-states "Connect cooldown", explained where it shows: a pick is checked with the control
 * plane and the server then rests for a minute, for this client only (docs/api.md
 * mark-server-processing). The seconds come from the server (GET /data/processing-servers at
 * load and every second), so after a reload the count goes on where it was; the selection
 * itself lives in the page, so a reload empties it and the hint says to pick the server again.
 * Its words are the client catalogue's, loaded without suspending the market while it arrives.
 */
function CooldownHint({ id, selected }: { id: string; selected: boolean }) {
  const { t, ready } = useTranslation('client', { useSuspense: false });
  if (!ready) return null;
  return (
    <p
      id={id}
      className="market-card__cooldown small muted"
      style={{ marginBlock: 'var(--space-2) 0' }}
      data-testid="market-cooldown-hint"
    >
      {selected ? t('market.cooldown.selected') : t('market.cooldown.afterReload')}{' '}
      {t('market.cooldown.why')}
    </p>
  );
}
