/**
 * A Content-Disposition that saves the answer as a file named after something a customer named:
 * an ASCII fallback for old clients and the exact name in RFC 5987 form.
 */
export function attachment(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}
