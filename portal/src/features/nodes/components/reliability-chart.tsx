import { useId } from 'react';
import { useRefreshedLoad } from '../../../lib/use-refreshed-load';
import { getServerReliability } from '../api/get-server-reliability';
import {
  type ChartDay,
  type ChartModel,
  DROP_LEGEND,
  type DropKind,
  formatHours,
  reliabilityChartModel,
} from '../reliability-chart-model';
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
 * The y axis runs from 50 (below it a server is unavailable: spec 02 §4) to 100, where the 95%
 * threshold can be told apart; a lower figure sits on the axis, drawn in the danger tone (the
 * tooltip and the table give it exactly).
 */
const FLOOR = 50;
const y = (value: number) =>
  BOTTOM - ((Math.max(FLOOR, value) - FLOOR) / (100 - FLOOR)) * (BOTTOM - TOP);

/**
 * Issue 18 §1: a server's daily reliability over the last 30 days, as an inline SVG (a dot for
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
      aria-label={`Reliability of ${serverName}, last 30 days`}
      data-testid="reliability-chart"
    >
      <h4 className="chart__title">Reliability, last 30 days</h4>
      {state.status === 'loading' && <p className="small muted">Loading the history...</p>}
      {state.status === 'error' && (
        <p className="small node-tone node-tone--danger" data-testid="reliability-chart-error">
          {state.message}
        </p>
      )}
      {state.status === 'ready' &&
        (state.model.days.length === 0 ? (
          <p className="small muted" data-testid="reliability-chart-empty">
            No history yet: it is written every minute from the server's first report.
          </p>
        ) : (
          <Chart model={state.model} />
        ))}
    </section>
  );
}

function Chart({ model }: { model: ChartModel }) {
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
        <title id={`${id}-title`}>Daily reliability, last {model.dates.length} days</title>
        <desc id={`${id}-desc`}>{model.summary}</desc>
        {[FLOOR, 75, 100].map((value) => (
          <g key={value} className="chart__grid">
            <line x1={LEFT} x2={RIGHT} y1={y(value)} y2={y(value)} />
            <text x={LEFT - 4} y={y(value) + 3} textAnchor="end">
              {value}
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
          <DayMark key={day.date} day={day} slotWidth={slotWidth} threshold={model.threshold} />
        ))}
        <text className="chart__axis" x={LEFT} y={HEIGHT - 4}>
          {first.slice(5)}
        </text>
        <text className="chart__axis" x={RIGHT} y={HEIGHT - 4} textAnchor="end">
          {last.slice(5)}
        </text>
      </svg>
      <Legend threshold={model.threshold} />
      <details className="chart__details">
        <summary>Reliability by day (table)</summary>
        <table className="chart__table" data-testid="reliability-table">
          <thead>
            <tr>
              <th scope="col">Day (UTC)</th>
              <th scope="col">Average</th>
              <th scope="col">Lowest</th>
              <th scope="col">Below {model.threshold}%</th>
              <th scope="col">Why it dropped</th>
            </tr>
          </thead>
          <tbody>
            {model.days.map((day) => (
              <tr key={day.date} data-testid="reliability-table-row" data-date={day.date}>
                <th scope="row">{day.date}</th>
                <td>{day.average}%</td>
                <td>{day.min}%</td>
                <td>{day.below ? formatHours(day.belowSeconds) : '-'}</td>
                <td>{day.reasons.length ? day.reasons.map((r) => r.text).join(', ') : '-'}</td>
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
}: {
  day: ChartDay;
  slotWidth: number;
  threshold: number;
}) {
  const cx = centre(day, slotWidth);
  const tone = day.average >= threshold ? 'success' : day.average >= FLOOR ? 'warning' : 'danger';
  return (
    <g data-testid="reliability-day" data-date={day.date}>
      <title>{day.label}</title>
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
        Daily average
      </li>
      <li>
        <svg viewBox="0 0 12 12" aria-hidden="true">
          <line className="reliability-chart__min" x1="6" x2="6" y1="1" y2="11" />
        </svg>
        Down to the day's lowest
      </li>
      <li>
        <svg viewBox="0 0 12 12" aria-hidden="true">
          <line className="reliability-chart__threshold" x1="0" x2="12" y1="6" y2="6" />
        </svg>
        {threshold}% threshold
      </li>
      {(Object.keys(DROP_LEGEND) as DropKind[]).map((kind) => (
        <li key={kind} data-testid={`reliability-legend-${kind}`}>
          <svg viewBox="0 0 12 12" aria-hidden="true">
            <DropMarkerSwatch kind={kind} />
          </svg>
          {DROP_LEGEND[kind]}
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
