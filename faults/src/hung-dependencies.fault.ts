import { afterAll, describe, expect, it } from 'vitest';
import { outage, tally, type HealthTimeline } from './outage';
import {
  convert,
  conversionsCounted,
  expectCompleteResults,
  expectOnly,
  isImageOutage,
  isTranslationOutage,
  newImageToken,
  newTranslationKey,
  numberedTexts,
  photo,
  restartsSince,
  settledJob,
  sleep,
  steadyLoad,
  submitBatch,
  translate,
  usageWords,
  type Answer,
} from './platform.client';
import { SERVICES, stack, type Server } from './stack.control';

const FROZEN_MS = 20_000;
/**
 * The longest a request may take while a dependency hangs: with the stack's deadlines (a query
 * 4 s, a new connection 5 s, a Redis command 1 s) a request that meets the hang at every one of
 * its steps is answered well before it ends.
 */
const ANSWER_WITHIN_MS = 16_000;
/** A request sent this early in a hang must be answered before it ends. */
const EARLY_MS = FROZEN_MS - ANSWER_WITHIN_MS;
/** After the server goes on, pools and connections are back within this; later requests must all succeed. */
const RECOVERY_MS = 8_000;
/** Conversions of one token run two at a time, and during a hang each may take seconds. */
const TOKENS = 12;

type Sent = Answer & { sentAt: number };
interface Window {
  server: Server;
  frozenAt: number;
  thawedAt: number;
  health: HealthTimeline;
}

describe('Postgres, then Redis, hanging for 20 s under translations, batches and conversions', () => {
  afterAll(async () => {
    for (const server of ['postgres', 'redis'] as const) await stack.thawServer(server).catch(() => undefined);
  });

  it('answers every request within its deadline, loses and double-charges nothing, and recovers without restarts', async () => {
    const before = await stack.state();
    const key = await newTranslationKey('hung-dependencies');
    const tokens = await Promise.all(Array.from({ length: TOKENS }, () => newImageToken()));
    const images = await Promise.all(Array.from({ length: 8 }, (_, i) => photo(2000 + i)));
    const batchTexts = numberedTexts(5);
    // 1 to 3 texts, so the words of the successful ones add up to something checkable.
    const translations = steadyLoad((n) => translate(key, Array.from({ length: 1 + (n % 3) }, () => 'The cat sleeps on the red sofa.')), 250);
    const batches = steadyLoad(() => submitBatch(key, batchTexts), 1000);
    const conversions = steadyLoad((n) => convert(tokens[n % tokens.length], images[n % images.length]), 1000);

    await sleep(3000);
    const windows: Window[] = [];
    for (const server of ['postgres', 'redis'] as const) {
      const { stoppedAt, startedAt, health } = await outage(server, FROZEN_MS, 60_000, 'freeze');
      windows.push({ server, frozenAt: stoppedAt, thawedAt: startedAt, health });
      await sleep(RECOVERY_MS);
    }
    const [translated, submitted, converted] = await Promise.all([translations.stop(), batches.stop(), conversions.stop()]);
    console.log(`[hung-dependencies] translate: ${JSON.stringify(tally(translated))}; batches: ${JSON.stringify(tally(submitted))}; convert: ${JSON.stringify(tally(converted))}`);

    expectOnly(translated, (res) => res.status === 200 || isTranslationOutage(res), 'translate: 200 or the 503 envelope with Retry-After');
    expectOnly(submitted, (res) => res.status === 202 || isTranslationOutage(res), 'batches: 202 or the 503 envelope with Retry-After');
    expectOnly(converted, (res) => res.status === 200 || isImageOutage(res), 'convert: 200 or the 503 envelope with Retry-After');
    const all = [...translated, ...submitted, ...converted];
    expectOnly(all, (res) => res.at - res.sentAt <= ANSWER_WITHIN_MS, `answered within ${ANSWER_WITHIN_MS / 1000} s`);
    const loadEndedAt = Date.now();
    for (const [i, { server, frozenAt, thawedAt, health }] of windows.entries()) {
      const early = all.filter((res) => res.sentAt >= frozenAt && res.sentAt < frozenAt + EARLY_MS);
      expect.soft(early.length, `requests sent early in the ${server} hang`).toBeGreaterThan(0);
      expectOnly(early, (res) => res.at < thawedAt, `sent early in the ${server} hang: answered before it ended, not held for all of it`);
      const recovered = (res: Sent) => res.sentAt > thawedAt + RECOVERY_MS && res.sentAt < (windows[i + 1]?.frozenAt ?? loadEndedAt);
      expectOnly([...translated, ...converted].filter(recovered), (res) => res.status === 200, `translate and convert after ${server} recovered`);
      expectOnly(submitted.filter(recovered), (res) => res.status === 202, `batches after ${server} recovered`);
      const check = server === 'postgres' ? 'postgres' : 'redis';
      for (const service of SERVICES) {
        expect.soft(health.during[service].some((h) => h.status === 503 && h.checks[check] === 'down'), `${service} /health while ${server} hung: ${JSON.stringify(health.during[service])}`).toBe(true);
        expect.soft(Math.max(...health.during[service].map((h) => h.ms)), `${service} /health answer time while ${server} hung`).toBeLessThan(3500);
        expect.soft(health.after[service], `${service} /health after ${server} went on`).toMatchObject({ status: 200 });
      }
    }
    const [postgresHang, redisHang] = windows;
    const during = (window: Window) => (res: Sent) => res.sentAt > window.frozenAt + 1000 && res.sentAt < window.thawedAt;
    expect.soft(translated.filter(during(postgresHang)).filter(isTranslationOutage).length, 'translations refused with 503 while Postgres hung').toBeGreaterThan(0);
    expect.soft(converted.filter(during(postgresHang)).filter(isImageOutage).length, 'conversions refused with 503 while Postgres hung').toBeGreaterThan(0);
    // Translations and conversions need no Redis: its rate limit and token slots give up on it and let them through.
    expect.soft(tally(translated.filter(during(redisHang))), 'translations while Redis hung').toEqual({ 200: translated.filter(during(redisHang)).length });
    expect.soft(tally(converted.filter(during(redisHang))), 'conversions while Redis hung').toEqual({ 200: converted.filter(during(redisHang)).length });

    // Nothing lost: every accepted batch finishes complete.
    const accepted = submitted.filter((res) => res.status === 202).map((res) => res.body.job as string);
    const deadline = Date.now() + 2 * 60_000;
    let batchWords = 0;
    for (const job of accepted) {
      const settled = await settledJob(key, job, Math.max(deadline - Date.now(), 1000));
      expectCompleteResults(settled, batchTexts);
      batchWords += Number(settled.words);
    }
    // Nothing charged twice or for nothing: the usage is what was answered 200 or accepted.
    const billed = translated.filter((res) => res.status === 200).reduce((sum, res) => sum + Number(res.body.words), 0) + batchWords;
    expect.soft(await usageWords(key), 'words billed').toBe(billed);
    const counted = (await Promise.all(tokens.map(conversionsCounted))).reduce((a, b) => a + b, 0);
    expect.soft(counted, 'conversions counted').toBe(converted.filter((res) => res.status === 200).length);
    expect(await restartsSince(before)).toEqual([]);
  });
});
