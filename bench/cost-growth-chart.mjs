// The cost-growth tables of all benchmarks as one hand-written SVG: input size against time on
// log-log axes, one line per path, so linear growth shows as parallel lines of slope 1.
// A table qualifies when its title starts with "Cost growth"; its first column is the size (a
// number; the header names the unit), and every column whose header says "(s)", "(ms)", "time"
// or "seconds" is a time. With a column named "path", each path is its own line; otherwise each
// time column is.

const PALETTE = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2', '#17becf', '#7f7f7f', '#bcbd22'];
const WIDTH = 900;
const HEIGHT = 520;
const PLOT = { left: 70, top: 40, right: 600, bottom: 460 };

const isTime = (header) => /\((m?s)\)|\btime\b|seconds/i.test(header);
const toSeconds = (header, value) => (/\(ms\)|\bms\b/i.test(header) ? value / 1000 : value);
const escape = (text) => String(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Lines `{ name, unit, points: [[size, seconds]] }` of one table. */
export function growthLines(table) {
  const title = table.title.replace(/^cost growth[:\s—-]*/i, '').trim() || table.title;
  const unit = table.columns[0];
  const number = (value) => (typeof value === 'number' ? value : Number.parseFloat(String(value)));
  const pathColumn = table.columns.findIndex((column) => /^path$/i.test(column));
  const timeColumns = table.columns.map((column, index) => [column, index]).filter(([column, index]) => index > 0 && index !== pathColumn && isTime(column));
  const lines = new Map();
  for (const row of table.rows) {
    const size = number(row[0]);
    for (const [column, index] of timeColumns) {
      const seconds = toSeconds(column, number(row[index]));
      if (!(size > 0 && seconds > 0)) continue;
      const name = pathColumn >= 0 ? `${title}: ${row[pathColumn]}${timeColumns.length > 1 ? ` ${column}` : ''}` : `${title}: ${column}`;
      if (!lines.has(name)) lines.set(name, { name, unit, points: [] });
      lines.get(name).points.push([size, seconds]);
    }
  }
  return [...lines.values()].map((line) => ({ ...line, points: line.points.sort((a, b) => a[0] - b[0]) }));
}

/** Tick values on a log axis: every power of ten in range, with 2 and 5 when it spans few decades. */
function logTicks(min, max) {
  const ticks = [];
  const decades = Math.log10(max) - Math.log10(min);
  const steps = decades <= 3 ? [1, 2, 5] : [1];
  for (let exponent = Math.floor(Math.log10(min)); exponent <= Math.ceil(Math.log10(max)); exponent++) {
    for (const step of steps) {
      const value = step * 10 ** exponent;
      if (value >= min && value <= max) ticks.push(value);
    }
  }
  return ticks;
}

const tickLabel = (value) => (value >= 1000 || value < 0.01 ? value.toExponential(0).replace('e+', 'e') : String(Number(value.toPrecision(3))));

/** Bounds a log axis to whole decades around the data, a little wider when the data spans one point. */
function logRange(values) {
  const min = Math.min(...values);
  const max = Math.max(...values);
  return [10 ** Math.floor(Math.log10(min)), 10 ** Math.ceil(Math.log10(max === min ? max * 10 : max))];
}

export function costGrowthSvg(tables) {
  const lines = tables.flatMap(growthLines).filter((line) => line.points.length > 0);
  const out = [`<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" font-family="sans-serif" font-size="12">`];
  out.push(`<rect width="${WIDTH}" height="${HEIGHT}" fill="white"/>`);
  out.push(`<text x="${PLOT.left}" y="22" font-size="15" font-weight="bold">Cost growth: time against input size (log-log)</text>`);
  if (lines.length === 0) {
    out.push(`<text x="${PLOT.left}" y="${PLOT.top + 40}">No cost-growth table had numeric sizes and times.</text></svg>`);
    return `${out.join('\n')}\n`;
  }
  const [xMin, xMax] = logRange(lines.flatMap((line) => line.points.map(([x]) => x)));
  const [yMin, yMax] = logRange(lines.flatMap((line) => line.points.map(([, y]) => y)));
  const sx = (x) => PLOT.left + ((Math.log10(x) - Math.log10(xMin)) / (Math.log10(xMax) - Math.log10(xMin))) * (PLOT.right - PLOT.left);
  const sy = (y) => PLOT.bottom - ((Math.log10(y) - Math.log10(yMin)) / (Math.log10(yMax) - Math.log10(yMin))) * (PLOT.bottom - PLOT.top);
  const px = (value) => value.toFixed(1);

  for (const x of logTicks(xMin, xMax)) {
    out.push(`<line x1="${px(sx(x))}" y1="${PLOT.top}" x2="${px(sx(x))}" y2="${PLOT.bottom}" stroke="#e5e5e5"/>`);
    out.push(`<text x="${px(sx(x))}" y="${PLOT.bottom + 16}" text-anchor="middle">${tickLabel(x)}</text>`);
  }
  for (const y of logTicks(yMin, yMax)) {
    out.push(`<line x1="${PLOT.left}" y1="${px(sy(y))}" x2="${PLOT.right}" y2="${px(sy(y))}" stroke="#e5e5e5"/>`);
    out.push(`<text x="${PLOT.left - 6}" y="${px(sy(y) + 4)}" text-anchor="end">${tickLabel(y)}</text>`);
  }
  out.push(`<rect x="${PLOT.left}" y="${PLOT.top}" width="${PLOT.right - PLOT.left}" height="${PLOT.bottom - PLOT.top}" fill="none" stroke="#333"/>`);
  const units = [...new Set(lines.map((line) => line.unit))].join(' / ');
  out.push(`<text x="${(PLOT.left + PLOT.right) / 2}" y="${PLOT.bottom + 36}" text-anchor="middle">input size (${escape(units)})</text>`);
  out.push(`<text transform="translate(18 ${(PLOT.top + PLOT.bottom) / 2}) rotate(-90)" text-anchor="middle">time (s)</text>`);

  lines.forEach((line, index) => {
    const colour = PALETTE[index % PALETTE.length];
    const points = line.points.map(([x, y]) => `${px(sx(x))},${px(sy(y))}`).join(' ');
    out.push(`<polyline points="${points}" fill="none" stroke="${colour}" stroke-width="2"/>`);
    for (const [x, y] of line.points) out.push(`<circle cx="${px(sx(x))}" cy="${px(sy(y))}" r="3" fill="${colour}"><title>${escape(line.name)}: ${x} ${escape(line.unit)}, ${y} s</title></circle>`);
    const legendY = PLOT.top + 8 + index * 18;
    out.push(`<line x1="${PLOT.right + 16}" y1="${legendY}" x2="${PLOT.right + 36}" y2="${legendY}" stroke="${colour}" stroke-width="2"/>`);
    out.push(`<text x="${PLOT.right + 42}" y="${legendY + 4}">${escape(line.name)}</text>`);
  });
  out.push('</svg>');
  return `${out.join('\n')}\n`;
}
