/** A value axis: its top and the values it labels, from 0 in even steps of 1, 2 or 5 × 10ⁿ. */
export interface ChartScale {
  top: number;
  ticks: number[];
  /** The limit when it is on the scale; undefined when it is far above what was used, so that drawing it would flatten every bar. */
  limit?: number;
}

/** Steps of about this many: enough to read a bar's value off the axis, few enough for a phone. */
const TARGET_STEPS = 4;
/** A limit up to this many times the highest bar is drawn; above, it is told in words. */
const LIMIT_SHOWN_UP_TO = 2;

/** The step of 1, 2 or 5 × 10ⁿ nearest to `raw` (as d3's ticks choose it: thresholds at √2, √10 and √50). */
function niceStep(raw: number): number {
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const residual = raw / magnitude;
  const nice = residual >= Math.sqrt(50) ? 10 : residual >= Math.sqrt(10) ? 5 : residual >= Math.SQRT2 ? 2 : 1;
  // Counts are whole: a step below 1 would label the same whole number twice.
  return Math.max(1, nice * magnitude);
}

/**
 * The scale of a chart of counts: sized to what was used (one conversion is a visible bar), with
 * the limit on it only when the limit is within reach of the highest bar.
 */
export function chartScale(values: number[], limit?: number): ChartScale {
  const highest = Math.max(0, ...values);
  const limitShown = limit !== undefined && limit > 0 && (highest === 0 ? false : limit <= highest * LIMIT_SHOWN_UP_TO) ? limit : undefined;
  const reach = Math.max(1, highest, limitShown ?? 0);
  const step = niceStep(reach / TARGET_STEPS);
  const top = Math.ceil(reach / step) * step;
  const ticks = Array.from({ length: top / step + 1 }, (_, i) => i * step);
  return { top, ticks, limit: limitShown };
}
