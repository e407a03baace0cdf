import { useId } from 'react';
import { formatNumber } from '../i18n/format';
import { useT } from '../i18n/i18n';
import { chartScale } from './utils/chart-scale';

export interface Bar {
  label: string;
  value: number;
}

interface BarChartProps {
  title: string;
  bars: Bar[];
  /** A line across the chart, e.g. a monthly limit; told in words when it is far above what was used. */
  limit?: number;
  /** What the dashed line is, e.g. "The dashed line is the monthly limit: 50 conversions.", when it is drawn. */
  limitLabel?: string;
  /** Said instead of an empty plot when every value is 0. */
  emptyText: string;
}

const HEIGHT = 160;
const BAR_WIDTH = 24;
const BAR_GAP = 2;
/** Day or month labels kept on a wide screen; on a phone every other one of them goes (CSS). */
const MAX_LABELS = 8;

/**
 * Bars in SVG on a labelled value axis, with the same figures as a table for screen readers.
 * Drawn without a charting library, which would weigh more than the whole first page is allowed
 * to; the axis labels are HTML, so they are never stretched with the plot.
 */
export function BarChart({ title, bars, limit, limitLabel, emptyText }: BarChartProps) {
  const t = useT();
  const id = useId();
  const values = bars.map((bar) => bar.value);
  const scale = chartScale(values, limit);
  const highest = Math.max(0, ...values);
  const width = Math.max(1, bars.length) * BAR_WIDTH;
  const y = (value: number) => HEIGHT - (value / scale.top) * HEIGHT;
  const everyNth = Math.ceil(bars.length / MAX_LABELS);
  const legend = limit === undefined || highest === 0 ? undefined : scale.limit === undefined ? t('chart.limitAbove', { limit: formatNumber(limit) }) : limitLabel;
  return (
    <figure className="chart">
      <figcaption id={id}>{title}</figcaption>
      {highest === 0 ? (
        <p className="chart-empty">{emptyText}</p>
      ) : (
        <div className="chart-plot">
          <div className="y-axis" aria-hidden="true">
            {scale.ticks.map((tick) => (
              <span key={tick} style={{ bottom: `${(tick / scale.top) * 100}%` }}>
                {formatNumber(tick)}
              </span>
            ))}
          </div>
          {/* Stretched to the figure's width. */}
          <svg viewBox={`0 0 ${width} ${HEIGHT}`} role="img" aria-labelledby={id} aria-describedby={`${id}-table`} preserveAspectRatio="none">
            <title>{t('chart.summary', { title, count: bars.length, max: formatNumber(highest) })}</title>
            {scale.ticks.map((tick) => (
              <line key={tick} className="grid" x1={0} x2={width} y1={y(tick)} y2={y(tick)} vectorEffect="non-scaling-stroke" />
            ))}
            {bars.map((bar, i) => (
              <rect key={bar.label} className="bar" x={i * BAR_WIDTH + BAR_GAP} y={y(bar.value)} width={BAR_WIDTH - 2 * BAR_GAP} height={HEIGHT - y(bar.value)}>
                <title>{`${bar.label}: ${formatNumber(bar.value)}`}</title>
              </rect>
            ))}
            {scale.limit !== undefined && <line className="limit" x1={0} x2={width} y1={y(scale.limit)} y2={y(scale.limit)} vectorEffect="non-scaling-stroke" />}
          </svg>
          <div className="axis" aria-hidden="true" style={{ gridTemplateColumns: `repeat(${Math.max(1, bars.length)}, minmax(0, 1fr))` }}>
            {bars.map(
              (bar, i) =>
                i % everyNth === 0 && (
                  <span key={bar.label} className={i % (2 * everyNth) === 0 ? undefined : 'minor'} style={{ gridColumn: `${i + 1} / span ${Math.min(everyNth, bars.length - i)}` }}>
                    {bar.label}
                  </span>
                ),
            )}
          </div>
        </div>
      )}
      {legend && <p className="chart-legend">{legend}</p>}
      <table id={`${id}-table`} className="visually-hidden">
        <caption>{title}</caption>
        <tbody>
          {bars.map((bar) => (
            <tr key={bar.label}>
              <th scope="row">{bar.label}</th>
              <td>{formatNumber(bar.value)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
