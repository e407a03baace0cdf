/**
 * Where to go after sign-in: only a path inside the console, so a crafted `?next=` cannot send a
 * freshly signed-in person to another site (`//evil.example`, `https://…`, `/\evil`).
 */
export function safeNext(next: string | null | undefined): string {
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return '/';
  return next;
}
