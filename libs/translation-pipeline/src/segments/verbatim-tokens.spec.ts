import { describe, expect, it } from 'vitest';
import { findVerbatimTokens } from './verbatim-tokens';

const tokensIn = (text: string) => findVerbatimTokens(text).map(({ start, end, words }) => [text.slice(start, end), words]);

describe('findVerbatimTokens', () => {
  it.each([
    ['Read [the docs](https://join-lemmy.org/docs/index.html).', [['https://join-lemmy.org/docs/index.html', 5]]],
    ['See https://example.com/a?b=c, then leave.', [['https://example.com/a?b=c', 5]]],
    ['Write to ana.maria@example.eu or mailto:info@eff.org!', [['ana.maria@example.eu', 2], ['mailto:info@eff.org', 2]]],
    ['Visit www.eff.org and privacybadger.org today', [['www.eff.org', 1], ['privacybadger.org', 1]]],
    ['Regex strings work also, IE *.example.com', [['example.com', 1]]],
    ['You can also use lemmy-federate.com or my-site.co.uk.', [['lemmy-federate.com', 2], ['my-site.co.uk', 2]]],
    ['Set snake_case_name in config.yaml for Node.js', [['snake_case_name', 1], ['config.yaml', 1], ['Node.js', 1]]],
  ])('keeps what is no word of a language in %s', (text, expected) => {
    expect(tokensIn(text)).toEqual(expected);
  });

  it.each([['z.B. e.g. U.S.A. Ph.D. EU:n S:t'], ['3.14 1,000 12:30'], ['Click Save.Then close'], ['Note: the end. Next: more'], ["don't l'homme aujourd'hui"]])('leaves the words of %s', (text) => {
    expect(findVerbatimTokens(text)).toEqual([]);
  });

  it('stays linear on long runs of joined letters', () => {
    expect(findVerbatimTokens('abc.'.repeat(50_000)).length).toBeGreaterThan(0);
    expect(findVerbatimTokens('a.'.repeat(50_000))).toEqual([]);
  });
});
