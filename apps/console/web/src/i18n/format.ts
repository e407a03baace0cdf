/**
 * Numbers and dates in the reader's own conventions (the browser's language), whatever the
 * language of the interface; usage periods are UTC days and months, so they are shown in UTC.
 */
const locale = () => (typeof navigator === 'undefined' ? 'en' : navigator.language || 'en');

export const formatNumber = (value: number) => new Intl.NumberFormat(locale()).format(value);

export const formatMoney = (value: number, currency = 'EUR') =>
  new Intl.NumberFormat(locale(), { style: 'currency', currency, minimumFractionDigits: 2, maximumFractionDigits: 4 }).format(value);

export const formatPercent = (share: number) => new Intl.NumberFormat(locale(), { style: 'percent', maximumFractionDigits: 1 }).format(share);

export const formatDateTime = (value: string | Date) => new Intl.DateTimeFormat(locale(), { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(value));

export const formatDate = (value: string | Date) => new Intl.DateTimeFormat(locale(), { dateStyle: 'medium' }).format(new Date(value));

/** `2026-11-03` as a short UTC day, e.g. "3 Nov". */
export const formatDay = (day: string) => new Intl.DateTimeFormat(locale(), { day: 'numeric', month: 'short', timeZone: 'UTC' }).format(new Date(`${day.slice(0, 10)}T00:00:00Z`));

/** `2026-11` as a short UTC month, e.g. "Nov 2026". */
export const formatMonth = (month: string) => new Intl.DateTimeFormat(locale(), { month: 'short', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${month.slice(0, 7)}-01T00:00:00Z`));

export const formatDuration = (ms: number) => (ms < 1000 ? `${formatNumber(Math.round(ms))} ms` : `${new Intl.NumberFormat(locale(), { maximumFractionDigits: 1 }).format(ms / 1000)} s`);

/** A language code as the reader's own language names it, e.g. `lv` → "Latvian". */
export const formatLanguage = (code: string) => new Intl.DisplayNames([locale(), 'en'], { type: 'language' }).of(code) ?? code;

const KIB = 1024;
const MIB = 1024 * 1024;

/** A file size in binary units, as the limits are set: `20 MiB`, `512 KiB`, `300 bytes`. */
export function formatBytes(bytes: number): string {
  const amount = (value: number) => new Intl.NumberFormat(locale(), { maximumFractionDigits: 1 }).format(value);
  if (bytes >= MIB) return `${amount(bytes / MIB)} MiB`;
  if (bytes >= KIB) return `${amount(bytes / KIB)} KiB`;
  return `${formatNumber(bytes)} bytes`;
}
