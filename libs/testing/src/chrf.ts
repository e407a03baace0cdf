/**
 * chrF (Popović 2015) exactly as sacreBLEU computes it by default (`CHRF()`: character n-grams of
 * orders 1 to 6, whitespace removed, β = 2, no word n-grams): the counts of each order summed over
 * all segments, precision and recall averaged over the orders that both sides have, then F-β.
 * npm has no maintained implementation; this one is checked against hand-worked figures in
 * chrf.spec.ts. Scores are 0 to 100.
 */
const ORDER = 6;
const BETA = 2;

/** Per order: n-grams of the hypothesis, of the reference, and those they share. */
type Statistics = { hypothesis: number; reference: number; matches: number }[];

/** The corpus-level score of `hypotheses` against `references`, pair by pair. */
export function chrF(hypotheses: readonly string[], references: readonly string[]): number {
  if (hypotheses.length !== references.length) throw new Error(`${hypotheses.length} hypotheses for ${references.length} references`);
  const totals: Statistics = Array.from({ length: ORDER }, () => ({ hypothesis: 0, reference: 0, matches: 0 }));
  hypotheses.forEach((hypothesis, index) => {
    statistics(hypothesis, references[index]).forEach((order, n) => {
      totals[n].hypothesis += order.hypothesis;
      totals[n].reference += order.reference;
      totals[n].matches += order.matches;
    });
  });
  return score(totals);
}

/** The score of one segment. */
export function sentenceChrF(hypothesis: string, reference: string): number {
  return chrF([hypothesis], [reference]);
}

function statistics(hypothesis: string, reference: string): Statistics {
  const hypothesisGrams = ngrams(hypothesis);
  const referenceGrams = ngrams(reference);
  return hypothesisGrams.map((grams, n) => {
    let matches = 0;
    for (const [gram, count] of grams) matches += Math.min(count, referenceGrams[n].get(gram) ?? 0);
    return { hypothesis: total(grams), reference: total(referenceGrams[n]), matches };
  });
}

/** Counts of the character n-grams of each order, whitespace removed, by code point. */
function ngrams(text: string): Map<string, number>[] {
  const characters = Array.from(text.split(/\s+/u).join(''));
  return Array.from({ length: ORDER }, (_, index) => {
    const n = index + 1;
    const counts = new Map<string, number>();
    for (let start = 0; start + n <= characters.length; start++) {
      const gram = characters.slice(start, start + n).join('');
      counts.set(gram, (counts.get(gram) ?? 0) + 1);
    }
    return counts;
  });
}

function total(counts: Map<string, number>): number {
  let sum = 0;
  for (const count of counts.values()) sum += count;
  return sum;
}

function score(totals: Statistics): number {
  let precision = 0;
  let recall = 0;
  let orders = 0;
  for (const { hypothesis, reference, matches } of totals) {
    if (hypothesis === 0 || reference === 0) continue;
    precision += matches / hypothesis;
    recall += matches / reference;
    orders++;
  }
  if (orders === 0) return 0;
  precision /= orders;
  recall /= orders;
  const factor = BETA ** 2;
  return precision + recall === 0 ? 0 : (100 * (1 + factor) * precision * recall) / (factor * precision + recall);
}
