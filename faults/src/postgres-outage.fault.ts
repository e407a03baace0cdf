import { afterAll, describe, expect, it } from 'vitest';
import { convert, conversionsCounted, expectOnly, isImageOutage, isTranslationOutage, newImageToken, newTranslationKey, photo, restartsSince, sleep, steadyLoad, translate, usageWords } from './platform.client';
import { outage, tally } from './outage';
import { stack, startStopped } from './stack.control';

const DOWN_MS = 30_000;
/** After Postgres is back, pools reconnect within this; later requests must all succeed. */
const RECOVERY_MS = 15_000;

describe('Postgres stopped for 30 s', () => {
  afterAll(startStopped);

  it('answers 503 with Retry-After meanwhile, recovers, and bills exactly what succeeded', async () => {
    const before = await stack.state();
    const key = await newTranslationKey('postgres-outage');
    // A token runs at most two conversions at once, and during the outage answers take longer.
    const tokens = await Promise.all(Array.from({ length: 4 }, () => newImageToken()));
    const images = await Promise.all(Array.from({ length: 8 }, (_, i) => photo(i)));
    // 1 to 3 texts, so the words of the successful ones add up to something checkable.
    const translations = steadyLoad((n) => translate(key, Array.from({ length: 1 + (n % 3) }, () => 'The cat sleeps on the red sofa.')), 250);
    const conversions = steadyLoad((n) => convert(tokens[n % tokens.length], images[n % images.length]), 1000);
    await sleep(5000);
    const { stoppedAt, startedAt } = await outage('postgres', DOWN_MS, 60_000);
    await sleep(RECOVERY_MS + 5000);
    const [translated, converted] = await Promise.all([translations.stop(), conversions.stop()]);
    console.log(`[postgres-outage] translate: ${JSON.stringify(tally(translated))}; convert: ${JSON.stringify(tally(converted))}`);

    expectOnly(translated, (res) => res.status === 200 || isTranslationOutage(res), 'translate: 200 or the 503 envelope with Retry-After');
    expectOnly(converted, (res) => res.status === 200 || isImageOutage(res), 'convert: 200 or the 503 envelope with Retry-After');
    const duringOutage = (a: { sentAt: number }) => a.sentAt > stoppedAt + 1000 && a.sentAt < startedAt;
    expect.soft(translated.filter(duringOutage).filter(isTranslationOutage).length, 'translate requests refused with 503 during the outage').toBeGreaterThan(0);
    expect.soft(converted.filter(duringOutage).filter(isImageOutage).length, 'conversions refused with 503 during the outage').toBeGreaterThan(0);
    const recovered = (a: { sentAt: number }) => a.sentAt > startedAt + RECOVERY_MS;
    expect.soft(tally(translated.filter(recovered)), 'translate after recovery').toEqual({ 200: translated.filter(recovered).length });
    expect.soft(tally(converted.filter(recovered)), 'convert after recovery').toEqual({ 200: converted.filter(recovered).length });

    const billed = translated.filter((res) => res.status === 200).reduce((sum, res) => sum + Number(res.body.words), 0);
    expect.soft(await usageWords(key), 'words billed').toBe(billed);
    const counted = (await Promise.all(tokens.map(conversionsCounted))).reduce((a, b) => a + b, 0);
    expect.soft(counted, 'conversions counted').toBe(converted.filter((res) => res.status === 200).length);
    expect(await restartsSince(before)).toEqual([]);
  });
});
