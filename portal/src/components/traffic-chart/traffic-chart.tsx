import { useId } from 'react';
import { formatBytes, formatDate } from '../../lib/i18n/format';
import { useT } from '../../lib/i18n/i18n';
import type { Locale } from '../../lib/i18n/locale';
import { useRefreshedLoad } from '../../lib/use-refreshed-load';
import type { TrafficBar, TrafficChartModel } from './traffic-chart-model';
import '../ui/chart.css';
import './traffic.css';

export interface TrafficChartProps {
  title: string;
  /** Reads the days: the window, the series (stack order) and their figures. */
  load: (signal: AbortSignal) => Promise<TrafficChartModel>;
  /** Changes when the page's data refreshes: the chart is read again (today's bar grows). */
  refreshKey: unknown;
  deps: readonly unknown[];
}

// The drawing's coordinates (the SVG scales to the card's width).
const WIDTH = 310;
const HEIGHT = 112;
const LEFT = 44;
const RIGHT = 306;
const TOP = 8;
const BOTTOM = 92;
/** Series colours, in stack order (a subscription's servers; a server's download, upload). */
const TONES = 6;

/**
 * Traffic per UTC day over the last 30 days as an inline SVG bar chart (one bar a
 * day, stacked by series, scaled to the busiest day), with the same figures as a table for
 * screen readers and keyboards. Like the reliability chart of the node dashboard.
 */
export function TrafficChart({ title, load, refreshKey, deps }: TrafficChartProps) {
  const { t } = useT();
  const state = useRefreshedLoad(load, [...deps, refreshKey]);

  return (
    <section className="chart traffic-chart" aria-label={title} data-testid="traffic-chart">
      <h4 className="chart__title">{title}</h4>
      {state.status === 'loading' && <p className="small muted">{t('traffic.loading')}</p>}
      {state.status === 'error' && (
        <p className="small traffic-chart__error" data-testid="traffic-chart-error">
          {state.message}
        </p>
      )}
      {state.status === 'ready' &&
        (state.model.bars.length === 0 ? (
          <p className="small muted" data-testid="traffic-chart-empty">
            {t('traffic.empty')}
          </p>
        ) : (
          <Chart model={state.model} />
        ))}
    </section>
  );
}

/** A UTC day (`YYYY-MM-DD`) in the reader's calendar. */
function dayText(date: string, locale: Locale, options: Intl.DateTimeFormatOptions): string {
  return formatDate(`${date}T00:00:00Z`, locale, { ...options, timeZone: 'UTC' });
}

function Chart({ model }: { model: TrafficChartModel }) {
  const { t, locale } = useT();
  const id = useId();
  const bytes = (value: number) => formatBytes(value, locale);
  const labelOf = new Map(model.series.map((s) => [s.key, s.label]));
  const barLabel = (bar: TrafficBar) => {
    const day = dayText(bar.date, locale, { dateStyle: 'medium' });
    if (bar.segments.length < 2) return t('traffic.bar', { day, total: bytes(bar.total) });
    const parts = bar.segments.map((segment) =>
      t('traffic.barPart', { name: labelOf.get(segment.key) ?? '', amount: bytes(segment.bytes) }),
    );
    return t('traffic.barParts', {
      day,
      total: bytes(bar.total),
      parts: new Intl.ListFormat(locale, { type: 'unit' }).format(parts),
    });
  };
  const summary =
    model.bars.length === 0
      ? t('traffic.summaryNone')
      : t('traffic.summary', {
          total: bytes(model.total),
          from: dayText(model.dates[0] ?? '', locale, { dateStyle: 'medium' }),
          to: dayText(model.dates[model.dates.length - 1] ?? '', locale, { dateStyle: 'medium' }),
          days: model.bars.length,
          busiest: bytes(model.max),
        });
  const slotWidth = (RIGHT - LEFT) / model.dates.length;
  const barWidth = Math.max(1, slotWidth * 0.7);
  const scale = (bytes: number) => (model.max > 0 ? (bytes / model.max) * (BOTTOM - TOP) : 0);
  const toneOf = new Map(model.series.map((s, i) => [s.key, i % TONES]));
  const first = model.dates[0] ?? '';
  const last = model.dates[model.dates.length - 1] ?? '';
  return (
    <>
      <p className="small muted" data-testid="traffic-chart-total">
        {t('traffic.total', { amount: bytes(model.total) })}
      </p>
      <svg
        className="chart__svg"
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-labelledby={`${id}-title ${id}-desc`}
        data-testid="traffic-chart-svg"
      >
        <title id={`${id}-title`}>{t('traffic.title', { days: model.dates.length })}</title>
        <desc id={`${id}-desc`}>{summary}</desc>
        {[0, model.max].map((value) => (
          <g key={value} className="chart__grid">
            <line x1={LEFT} x2={RIGHT} y1={BOTTOM - scale(value)} y2={BOTTOM - scale(value)} />
            <text x={LEFT - 4} y={BOTTOM - scale(value) + 3} textAnchor="end">
              {bytes(value)}
            </text>
          </g>
        ))}
        {model.bars.map((bar) => {
          const x = LEFT + bar.slot * slotWidth + (slotWidth - barWidth) / 2;
          let top = BOTTOM;
          return (
            <g key={bar.date} data-testid="traffic-day" data-date={bar.date} data-bytes={bar.total}>
              <title>{barLabel(bar)}</title>
              {bar.segments.map((segment) => {
                const height = scale(segment.bytes);
                top -= height;
                return (
                  <rect
                    key={segment.key}
                    className={`traffic-chart__bar traffic-chart__bar--${toneOf.get(segment.key)}`}
                    x={x}
                    y={top}
                    width={barWidth}
                    height={Math.max(height, 0.5)}
                  />
                );
              })}
            </g>
          );
        })}
        <text className="chart__axis" x={LEFT} y={HEIGHT - 4}>
          {first && dayText(first, locale, { month: 'short', day: 'numeric' })}
        </text>
        <text className="chart__axis" x={RIGHT} y={HEIGHT - 4} textAnchor="end">
          {last && dayText(last, locale, { month: 'short', day: 'numeric' })}
        </text>
      </svg>
      {model.series.length > 1 && (
        <ul className="chart__legend small muted" data-testid="traffic-legend">
          {model.series.map((s) => (
            <li key={s.key}>
              <svg viewBox="0 0 12 12" aria-hidden="true">
                <rect
                  className={`traffic-chart__bar traffic-chart__bar--${toneOf.get(s.key)}`}
                  x="1"
                  y="1"
                  width="10"
                  height="10"
                />
              </svg>
              {s.label}
            </li>
          ))}
        </ul>
      )}
      <details className="chart__details">
        <summary>{t('traffic.tableSummary')}</summary>
        <table className="data-table chart__table" data-testid="traffic-table">
          <thead>
            <tr>
              <th scope="col">{t('traffic.day')}</th>
              {model.series.map((s) => (
                <th key={s.key} scope="col">
                  {s.label}
                </th>
              ))}
              <th scope="col">{t('traffic.totalColumn')}</th>
            </tr>
          </thead>
          <tbody>
            {model.bars.map((bar) => (
              <tr key={bar.date} data-testid="traffic-table-row" data-date={bar.date}>
                <th scope="row">{dayText(bar.date, locale, { dateStyle: 'medium' })}</th>
                {model.series.map((s) => {
                  const segment = bar.segments.find((g) => g.key === s.key);
                  return <td key={s.key}>{segment ? bytes(segment.bytes) : '-'}</td>;
                })}
                <td>{bytes(bar.total)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </>
  );
}
