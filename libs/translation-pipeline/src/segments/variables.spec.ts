import { describe, expect, it } from 'vitest';
import { findVariables } from './variables';

const variablesIn = (text: string) => findVariables(text).map(({ start, end }) => text.slice(start, end));

describe('findVariables', () => {
  it.each([
    ['Hi {name} and {0}', ['{name}', '{0}']],
    ['Hi {{name}}, {{ user.name }}, {{#if admin}}boss{{/if}}', ['{{name}}', '{{ user.name }}', '{{#if admin}}', '{{/if}}']],
    ['%s %d %i %f %1$s %2$d %.2f %-5d %05.1f %lu %(name)s %@ %%', ['%s', '%d', '%i', '%f', '%1$s', '%2$d', '%.2f', '%-5d', '%05.1f', '%lu', '%(name)s', '%@', '%%']],
    ['Total ${amount} of ${items.length}', ['${amount}', '${items.length}']],
    ['Blocked $COUNT$ trackers, $LINK_START$learn more$LINK_END$', ['$COUNT$', '$LINK_START$', '$LINK_END$']],
    ['{count, plural, =0 {no items} one {# item} other {# items}} left', ['{count, plural, =0 {no items} one {# item} other {# items}}']],
    ['{gender, select, female {She} male {He} other {They}} said {when, time, short}', ['{gender, select, female {She} male {He} other {They}}', '{when, time, short}']],
  ])('finds the variables of %s', (text, expected) => {
    expect(variablesIn(text)).toEqual(expected);
  });

  it.each([['100% sure, 50 % off'], ['a { b c } d'], ['unclosed {name'], ['{a b}'], ['$100 and ${'], ['$5 or $10 $']])('finds none in %s', (text) => {
    expect(findVariables(text)).toEqual([]);
  });

  it('stays fast on text full of unmatched braces', () => {
    expect(findVariables('{'.repeat(30_000))).toEqual([]);
  });
});
