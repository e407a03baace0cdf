/** The calendar month (UTC) a moment belongs to, as stored in key_usage.month: `YYYY-MM`. */
export function utcMonth(at: Date = new Date()): string {
  return at.toISOString().slice(0, 7);
}
