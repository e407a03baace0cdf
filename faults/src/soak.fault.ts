import { afterAll, describe, expect, it } from 'vitest';
import { convert, newImageToken, newTranslationKey, photo, restartsSince, sleep, steadyLoad, translate } from './platform.client';
import { tally } from './outage';
import { SERVICES, stack, startStopped, type Service } from './stack.control';

/** `npm run faults -- --soak 600` for ten minutes; two by default, as in CI. */
const SOAK_MS = Number(process.env.FAULTS_SOAK_SECONDS || 120) * 1000;
/** Pools, JIT and caches fill up first: the baseline is taken after this much load. */
const WARM_UP_MS = 20_000;
const SAMPLE_EVERY_MS = 30_000;
/** "Flat": at the end, and after the load, no service is more than this above its baseline. */
const RSS_TOLERANCE = 0.2;

const mb = (bytes: number | null) => (bytes === null ? '-' : `${(bytes / 2 ** 20).toFixed(0)} MB`);

describe(`soak: 5 translations and 1 conversion per second for ${SOAK_MS / 1000} s`, () => {
  afterAll(startStopped);

  it('answers no 5xx, logs no errors, and keeps every service\'s memory flat', { timeout: SOAK_MS + WARM_UP_MS + 5 * 60_000 }, async () => {
    const before = await stack.state();
    const key = await newTranslationKey('soak');
    const token = await newImageToken();
    const images = await Promise.all(Array.from({ length: 30 }, (_, i) => photo(2000 + i)));
    const samples: [string, Record<Service, number | null>][] = [['before', await stack.rss()]];

    const translations = steadyLoad((n) => translate(key, [`Message ${n}: the cat is sleeping on the red sofa.`, 'The dog runs in the park.']), 200);
    const conversions = steadyLoad((n) => convert(token, images[n % images.length], n % 2 ? 'avif' : 'webp'), 1000);
    await sleep(WARM_UP_MS);
    const since = Date.now();
    samples.push(['baseline', await stack.rss()]);
    while (Date.now() - since < SOAK_MS) {
      await sleep(Math.min(SAMPLE_EVERY_MS, SOAK_MS - (Date.now() - since)));
      samples.push([`${((Date.now() - since) / 1000).toFixed(0)} s`, await stack.rss()]);
    }
    const [translated, converted] = await Promise.all([translations.stop(), conversions.stop()]);
    await sleep(5000);
    samples.push(['after', await stack.rss()]);
    const problems = await stack.problems(since);

    console.log(
      [`[soak] translate: ${JSON.stringify(tally(translated))}; convert: ${JSON.stringify(tally(converted))}`, `[soak] RSS ${['', ...SERVICES].join('\t')}`]
        .concat(samples.map(([when, rss]) => `[soak] ${when}\t${SERVICES.map((s) => mb(rss[s])).join('\t')}`))
        .join('\n'),
    );
    expect(tally(translated.filter((res) => res.status === 0 || res.status >= 500)), 'translate: no 5xx, no lost request').toEqual({});
    expect(tally(converted.filter((res) => res.status === 0 || res.status >= 500)), 'convert: no 5xx, no lost request').toEqual({});
    expect(problems.map((p) => `${p.service}: ${p.line}`), 'error-level log lines during the soak').toEqual([]);
    // One reading may fall just after a major collection (translate-api read 135 MB at one
    // sample and 170 MB at the next with the same heap), so the figure a service is held to is
    // the higher of its readings before and after the warm-up.
    const baseline = (service: Service) => Math.max(samples[0][1][service]!, samples[1][1][service]!);
    for (const [when, rss] of [samples.at(-2)!, samples.at(-1)!]) {
      for (const service of SERVICES) {
        expect(rss[service]!, `${service} RSS ${when} (${mb(rss[service])}) against its baseline ${mb(baseline(service))}`).toBeLessThanOrEqual(baseline(service) * (1 + RSS_TOLERANCE));
      }
    }
    expect(await restartsSince(before)).toEqual([]);
  });
});
