import { useId } from 'react';
import { formatDate, formatNumber } from '../../../lib/i18n/format';
import { useT } from '../../../lib/i18n/i18n';
import { INTL_TAGS, type Locale } from '../../../lib/i18n/locale';
import { useRefreshedLoad } from '../../../lib/use-refreshed-load';
import { getServerReliability } from '../api/get-server-reliability';
import {
  type ChartDay,
  type ChartModel,
  DROP_KINDS,
  type DropKind,
  type DropReason,
  hoursOf,
  reliabilityChartModel,
} from '../reliability-chart-model';
import { formatPercent, type NodeT } from '../server-format';
import '../../../components/ui/chart.css';
import '../nodes.css';

export interface ReliabilityChartProps {
  ownerUuid: string;
  serverId: string;
  serverName: string;
  /** Changes when the server list refreshes: the chart is read again (today's day grows). */
  refreshKey: number;
}

// The drawing's coordinates (the SVG scales to the card's width).
const WIDTH = 310;
const HEIGHT = 128;
const LEFT = 30;
const RIGHT = 306;
const TOP = 26;
const BOTTOM = 108;
/** One row per drop reason above the plot, in the legend's order. */
const MARKER_ROWS: Record<DropKind, number> = { stale: 5, failed: 13, malformed: 21 };
/**
 * The y axis runs from 50 (below it a server is unavailable: docs/product/states.md#subscription-and-reliability-states) to 100, where the 95%
 * threshold can be told apart; a lower figure sits on the axis, drawn in the danger tone (the
 * tooltip and the table give it exactly).
 */
const FLOOR = 50;
const y = (value: number) =>
  BOTTOM - ((Math.max(FLOOR, value) - FLOOR) / (100 - FLOOR)) * (BOTTOM - TOP);

/** The words of the chart in the reader's language (the model holds only figures). */
interface Words {
  t: NodeT;
  locale: Locale;
}

/** A UTC day (`YYYY-MM-DD`) in the reader's calendar. */
function dayText(date: string, locale: Locale, options: Intl.DateTimeFormatOptions): string {
  return formatDate(`${date}T00:00:00Z`, locale, { ...options, timeZone: 'UTC' });
}

function hoursText(seconds: number, { t, locale }: Words): string {
  return t('reliability.hours', { hours: formatNumber(hoursOf(seconds), locale) });
}

function reasonText(reason: DropReason, words: Words): string {
  const { t } = words;
  if (reason.kind === 'stale')
    return t('reliability.reason.stale', { hours: hoursText(reason.amount, words) });
  if (reason.kind === 'failed') return t('reliability.reason.failed', { count: reason.amount });
  return t('reliability.reason.malformed', { count: reason.amount });
}

function reasonsText(reasons: readonly DropReason[], words: Words): string {
  const list = new Intl.ListFormat(INTL_TAGS[words.locale], {
    type: 'unit',
    style: 'short',
  });
  return list.format(reasons.map((reason) => reasonText(reason, words)));
}

/** One line for a day's tooltip: its figures, time below the threshold, why it dropped. */
function dayLabel(day: ChartDay, threshold: number, words: Words): string {
  const { t, locale } = words;
  const parts = [
    t('reliability.day.figures', {
      date: dayText(day.date, locale, { dateStyle: 'medium' }),
      average: formatPercent(day.average, locale),
      min: formatPercent(day.min, locale),
    }),
  ];
  if (day.below) {
    parts.push(
      t('reliability.day.below', {
        hours: hoursText(day.belowSeconds, words),
        threshold: formatPercent(threshold, locale),
      }),
    );
  }
  if (day.reasons.length > 0) {
    parts.push(t('reliability.day.dropped', { reasons: reasonsText(day.reasons, words) }));
  }
  return parts.join(t('reliability.separator'));
}

/** The chart in a sentence, for assistive technology. */
function summaryText(model: ChartModel, words: Words): string {
  const { t, locale } = words;
  const days = model.dates.length;
  const to = dayText(model.dates[days - 1] ?? '', locale, { dateStyle: 'medium' });
  const lowest = model.summary.lowest;
  if (!lowest) return t('reliability.summary.empty', { days, to });
  return t('reliability.summary.data', {
    days,
    to,
    withData: model.days.length,
    lowest: formatPercent(lowest.min, locale),
    lowestDate: dayText(lowest.date, locale, { dateStyle: 'medium' }),
    belowDays: model.summary.belowDays,
    dropDays: model.summary.dropDays,
  });
}

/**
 * A server's daily reliability over the last 30 days, as an inline SVG (a dot for
 * the day's time-weighted average on a line through the days, a stroke down to the day's lowest,
 * the 95% line), with a marker for each
 * reason a day dropped (stale reports, failed client counts, malformed reports) named in the
 * legend and in each day's tooltip; the same figures as a table for screen readers and keyboards.
 */
export function ReliabilityChart({
  ownerUuid,
  serverId,
  serverName,
  refreshKey,
}: ReliabilityChartProps) {
  const { t } = useT('node');
  const state = useRefreshedLoad(
    (signal) =>
      getServerReliability(ownerUuid, serverId, signal).then((response) =>
        reliabilityChartModel(response),
      ),
    [ownerUuid, serverId, refreshKey],
  );

  return (
    <section
      className="chart reliability-chart"
      aria-label={t('reliability.label', { name: serverName })}
      data-testid="reliability-chart"
    >
      <h4 className="chart__title">{t('reliability.title')}</h4>
      {state.status === 'loading' && <p className="small muted">{t('reliability.loading')}</p>}
      {state.status === 'error' && (
        <p className="small node-tone node-tone--danger" data-testid="reliability-chart-error">
          {state.message}
        </p>
      )}
      {state.status === 'ready' &&
        (state.model.days.length === 0 ? (
          <p className="small muted" data-testid="reliability-chart-empty">
            {t('reliability.empty')}
          </p>
        ) : (
          <Chart model={state.model} />
        ))}
    </section>
  );
}

function Chart({ model }: { model: ChartModel }) {
  const { t, locale } = useT('node');
  const words: Words = { t, locale };
  const id = useId();
  const slotWidth = (RIGHT - LEFT) / model.dates.length;
  const first = model.dates[0] ?? '';
  const last = model.dates[model.dates.length - 1] ?? '';
  return (
    <>
      <svg
        className="chart__svg"
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-labelledby={`${id}-title ${id}-desc`}
        data-testid="reliability-chart-svg"
      >
        <title id={`${id}-title`}>{t('reliability.svgTitle', { count: model.dates.length })}</title>
        <desc id={`${id}-desc`}>{summaryText(model, words)}</desc>
        {[FLOOR, 75, 100].map((value) => (
          <g key={value} className="chart__grid">
            <line x1={LEFT} x2={RIGHT} y1={y(value)} y2={y(value)} />
            <text x={LEFT - 4} y={y(value) + 3} textAnchor="end">
              {formatNumber(value, locale)}
            </text>
          </g>
        ))}
        <line
          className="reliability-chart__threshold"
          x1={LEFT}
          x2={RIGHT}
          y1={y(model.threshold)}
          y2={y(model.threshold)}
        />
        {runsOf(model.days).map((run) => (
          <polyline
            key={run[0]!.date}
            className="reliability-chart__line"
            points={run.map((day) => `${centre(day, slotWidth)},${y(day.average)}`).join(' ')}
          />
        ))}
        {model.days.map((day) => (
          <DayMark
            key={day.date}
            day={day}
            slotWidth={slotWidth}
            threshold={model.threshold}
            label={dayLabel(day, model.threshold, words)}
          />
        ))}
        <text className="chart__axis" x={LEFT} y={HEIGHT - 4}>
          {first && dayText(first, locale, { month: 'numeric', day: 'numeric' })}
        </text>
        <text className="chart__axis" x={RIGHT} y={HEIGHT - 4} textAnchor="end">
          {last && dayText(last, locale, { month: 'numeric', day: 'numeric' })}
        </text>
      </svg>
      <Legend threshold={model.threshold} />
      <details className="chart__details">
        <summary>{t('reliability.table.summary')}</summary>
        <table className="data-table chart__table" data-testid="reliability-table">
          <thead>
            <tr>
              <th scope="col">{t('reliability.table.day')}</th>
              <th scope="col">{t('reliability.table.average')}</th>
              <th scope="col">{t('reliability.table.lowest')}</th>
              <th scope="col">
                {t('reliability.table.below', {
                  threshold: formatPercent(model.threshold, locale),
                })}
              </th>
              <th scope="col">{t('reliability.table.why')}</th>
            </tr>
          </thead>
          <tbody>
            {model.days.map((day) => (
              <tr key={day.date} data-testid="reliability-table-row" data-date={day.date}>
                <th scope="row">{dayText(day.date, locale, { dateStyle: 'medium' })}</th>
                <td>{formatPercent(day.average, locale)}</td>
                <td>{formatPercent(day.min, locale)}</td>
                <td>{day.below ? hoursText(day.belowSeconds, words) : '-'}</td>
                <td>{day.reasons.length ? reasonsText(day.reasons, words) : '-'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </>
  );
}

const centre = (day: ChartDay, slotWidth: number) => LEFT + (day.slot + 0.5) * slotWidth;

/** Consecutive days with data: the line through the averages breaks where a day has none. */
function runsOf(days: readonly ChartDay[]): ChartDay[][] {
  const runs: ChartDay[][] = [];
  for (const day of days) {
    const run = runs[runs.length - 1];
    if (run && run[run.length - 1]!.slot === day.slot - 1) run.push(day);
    else runs.push([day]);
  }
  return runs;
}

/** One day: its average, a stroke down to its lowest, a marker per drop reason; the tooltip says it all. */
function DayMark({
  day,
  slotWidth,
  threshold,
  label,
}: {
  day: ChartDay;
  slotWidth: number;
  threshold: number;
  label: string;
}) {
  const cx = centre(day, slotWidth);
  const tone = day.average >= threshold ? 'success' : day.average >= FLOOR ? 'warning' : 'danger';
  return (
    <g data-testid="reliability-day" data-date={day.date}>
      <title>{label}</title>
      {/* A transparent hit area: the tooltip shows anywhere in the day's column. */}
      <rect
        className="reliability-chart__hit"
        x={cx - slotWidth / 2}
        y={0}
        width={slotWidth}
        height={BOTTOM}
      />
      {day.min < day.average && (
        <line
          className="reliability-chart__min"
          x1={cx}
          x2={cx}
          y1={y(day.average)}
          y2={y(day.min)}
        />
      )}
      <circle
        className={`reliability-chart__dot reliability-chart__dot--${tone}`}
        cx={cx}
        cy={y(day.average)}
        r={2.4}
      />
      {day.reasons.map((reason) => (
        <DropMarker key={reason.kind} kind={reason.kind} cx={cx} cy={MARKER_ROWS[reason.kind]} />
      ))}
    </g>
  );
}

function DropMarker({ kind, cx, cy }: { kind: DropKind; cx: number; cy: number }) {
  const className = `reliability-chart__marker reliability-chart__marker--${kind}`;
  const common = { className, 'data-testid': 'reliability-drop', 'data-kind': kind };
  if (kind === 'stale') return <circle {...common} cx={cx} cy={cy} r={3} />;
  if (kind === 'failed') {
    return (
      <path {...common} d={`M${cx} ${cy - 3.5} L${cx + 3.5} ${cy + 3} L${cx - 3.5} ${cy + 3} Z`} />
    );
  }
  return <rect {...common} x={cx - 3} y={cy - 3} width={6} height={6} />;
}

function Legend({ threshold }: { threshold: number }) {
  const { t, locale } = useT('node');
  return (
    <ul className="chart__legend small muted" data-testid="reliability-legend">
      <li>
        <svg viewBox="0 0 12 12" aria-hidden="true">
          <circle
            className="reliability-chart__dot reliability-chart__dot--success"
            cx="6"
            cy="6"
            r="3"
          />
        </svg>
        {t('reliability.legend.average')}
      </li>
      <li>
        <svg viewBox="0 0 12 12" aria-hidden="true">
          <line className="reliability-chart__min" x1="6" x2="6" y1="1" y2="11" />
        </svg>
        {t('reliability.legend.lowest')}
      </li>
      <li>
        <svg viewBox="0 0 12 12" aria-hidden="true">
          <line className="reliability-chart__threshold" x1="0" x2="12" y1="6" y2="6" />
        </svg>
        {t('reliability.legend.threshold', { threshold: formatPercent(threshold, locale) })}
      </li>
      {DROP_KINDS.map((kind) => (
        <li key={kind} data-testid={`reliability-legend-${kind}`}>
          <svg viewBox="0 0 12 12" aria-hidden="true">
            <DropMarkerSwatch kind={kind} />
          </svg>
          {t(`reliability.legend.${kind}`)}
        </li>
      ))}
    </ul>
  );
}

function DropMarkerSwatch({ kind }: { kind: DropKind }) {
  const className = `reliability-chart__marker reliability-chart__marker--${kind}`;
  if (kind === 'stale') return <circle className={className} cx="6" cy="6" r="3.5" />;
  if (kind === 'failed') return <path className={className} d="M6 2 L10 9.5 L2 9.5 Z" />;
  return <rect className={className} x="2.5" y="2.5" width="7" height="7" />;
}
