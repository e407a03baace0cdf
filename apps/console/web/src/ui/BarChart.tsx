import { useId } from 'react';
import { formatNumber } from '../i18n/format';
import { useT } from '../i18n/i18n';

export interface Bar {
  label: string;
  value: number;
}

interface BarChartProps {
  title: string;
  bars: Bar[];
  /** A line across the chart, e.g. a monthly limit. */
  limit?: number;
  limitLabel?: string;
}

const HEIGHT = 160;
const BAR_GAP = 2;

/**
 * Bars in SVG, with the same figures as a table for screen readers: drawn without a charting
 * library, which would weigh more than the whole first page is allowed to.
 */
export function BarChart({ title, bars, limit, limitLabel }: BarChartProps) {
  const t = useT();
  const id = useId();
  const max = Math.max(1, limit ?? 0, ...bars.map((bar) => bar.value));
  const width = Math.max(1, bars.length) * 24;
  const y = (value: number) => HEIGHT - (value / max) * HEIGHT;
  const everyNth = Math.ceil(bars.length / 8);
  return (
    <figure className="chart">
      <figcaption id={id}>{title}</figcaption>
      {/* Stretched to the figure's width; the axis labels below stay HTML, so their text is never stretched with it. */}
      <svg viewBox={`0 0 ${width} ${HEIGHT}`} role="img" aria-labelledby={id} aria-describedby={`${id}-table`} preserveAspectRatio="none">
        <title>{t('chart.summary', { title, count: bars.length, max: formatNumber(Math.max(0, ...bars.map((bar) => bar.value))) })}</title>
        {bars.map((bar, i) => (
          <rect key={bar.label} className="bar" x={i * 24 + BAR_GAP} y={y(bar.value)} width={24 - 2 * BAR_GAP} height={HEIGHT - y(bar.value)}>
            <title>{`${bar.label}: ${formatNumber(bar.value)}`}</title>
          </rect>
        ))}
        {limit !== undefined && <line className="limit" x1={0} x2={width} y1={y(limit)} y2={y(limit)} vectorEffect="non-scaling-stroke" />}
      </svg>
      <div className="axis" aria-hidden="true" style={{ gridTemplateColumns: `repeat(${Math.max(1, bars.length)}, minmax(0, 1fr))` }}>
        {bars.map(
          (bar, i) =>
            i % everyNth === 0 && (
              <span key={bar.label} style={{ gridColumn: `${i + 1} / span ${Math.min(everyNth, bars.length - i)}` }}>
                {bar.label}
              </span>
            ),
        )}
      </div>
      {limit !== undefined && limitLabel && <p className="chart-legend">{limitLabel}</p>}
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
