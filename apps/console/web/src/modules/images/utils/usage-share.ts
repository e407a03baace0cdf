/** How much of a monthly limit is used, 0 to 1 (a limit of 0 is used up from the start). */
export function usageShare(conversions: number, limit: number): number {
  if (limit <= 0) return 1;
  return Math.min(1, Math.max(0, conversions / limit));
}
