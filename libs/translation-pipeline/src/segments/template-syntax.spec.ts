import { describe, expect, it } from 'vitest';
import { findTemplateSyntax, MAX_TAG_LENGTH } from './template-syntax';

const tagsIn = (text: string) => findTemplateSyntax(text).map(({ start, end }) => text.slice(start, end));

describe('findTemplateSyntax', () => {
  it.each([
    ['Jinja and Django', '{% extends "main.html" %} {% block tabs %}Tabs{% endblock %} {%- if x -%}{{ user.name|title }}{%- endif -%} {# a note #}', [
      '{% extends "main.html" %}', '{% block tabs %}', '{% endblock %}', '{%- if x -%}', '{{ user.name|title }}', '{%- endif -%}', '{# a note #}',
    ]],
    ['Django strings holding markup and closers', `{% cycle '' '</tr><tr>' as trtr silent %} {% trans "50%} off" %} {{ body|slice:"-10000:" }}`, [
      `{% cycle '' '</tr><tr>' as trtr silent %}`, '{% trans "50%} off" %}', '{{ body|slice:"-10000:" }}',
    ]],
    ['Handlebars', '{{#if x}}Yes{{else}}No{{/if}} {{{raw}}} {{> "icons/fire"}} {{^empty}}{{/empty}} {{~name~}} {{{{raw}}}}', [
      '{{#if x}}', '{{else}}', '{{/if}}', '{{{raw}}}', '{{> "icons/fire"}}', '{{^empty}}', '{{/empty}}', '{{~name~}}', '{{{{raw}}}}',
    ]],
    ['Handlebars comments', '{{!< default}} Text {{!-- holds }} and {{x}} --}} more {{~!-- trimmed --~}} {{! short }}', [
      '{{!< default}}', '{{!-- holds }} and {{x}} --}}', '{{~!-- trimmed --~}}', '{{! short }}',
    ]],
    ['a Handlebars string holding a tag', '{{#get "posts" filter="id:-{{id}}" limit="3" as |more_posts|}}Read{{/get}}', [
      '{{#get "posts" filter="id:-{{id}}" limit="3" as |more_posts|}}', '{{/get}}',
    ]],
    ['Jinja expressions holding "<b>", dictionaries and apostrophes', `{{ "<b>" }} {{ {'a': {'b': 1}} }} {{ it's }}`, [`{{ "<b>" }}`, `{{ {'a': {'b': 1}} }}`, `{{ it's }}`]],
    ['EJS and ERB', "<% if (typeof PROD != 'undefined' && PROD == true) { %>x<% } %> <%= user.name %> <%- html -%> <%# note %> <%asm_global_unsubscribe_raw_url%>", [
      "<% if (typeof PROD != 'undefined' && PROD == true) { %>", '<% } %>', '<%= user.name %>', '<%- html -%>', '<%# note %>', '<%asm_global_unsubscribe_raw_url%>',
    ]],
    ['vue-i18n linked messages', "@:common.save and close, @.lower:message.name. @:(key.with.dots) @:{'quoted key'}", [
      '@:common.save', '@.lower:message.name', '@:(key.with.dots)', "@:{'quoted key'}",
    ]],
    ['i18next nesting', '$t(key) and $t(items, { "count": {{count}}, "ctx": "a)b" }) and $t(a, {"x": (1)})', [
      '$t(key)', '$t(items, { "count": {{count}}, "ctx": "a)b" })', '$t(a, {"x": (1)})',
    ]],
    ['Rails and Ruby format', 'Hello %{name}, you owe %<amount>.2f and %<n>d', ['%{name}', '%<amount>.2f', '%<n>d']],
    ['Vue interpolation calling $t', "{{ $t('hello') }}", ["{{ $t('hello') }}"]],
  ])('finds %s', (_, text, expected) => {
    expect(tagsIn(text)).toEqual(expected);
  });

  it.each([
    ['an ICU plural with a nested argument', '{count, plural, =1{one item} other{{quantity} ITEMS}}'],
    ['ICU hashes', '{n, plural, one {#} other {# items}} and {n, plural, one {# item} other {#}}'],
    ['prose', 'Send 100% to user@example.eu or @team: $total (50 %{ off) {b} a{ b } c'],
    ['unclosed tags', '{{ name and {% if and {# note and <% code and $t(key and @: alone'],
  ])('finds nothing in %s', (_, text) => {
    expect(findTemplateSyntax(text)).toEqual([]);
  });

  it('takes no tag longer than the limit', () => {
    expect(findTemplateSyntax(`{{ ${'x'.repeat(MAX_TAG_LENGTH)} }}`)).toEqual([]);
    expect(tagsIn(`{{ ${'x'.repeat(100)} }}`)).toHaveLength(1);
  });

  it.each([
    ['{{', '{{'.repeat(100_000)],
    ['{{ ', '{{ '.repeat(100_000)],
    ['<%', '<%'.repeat(100_000)],
    ['{%', '{% '.repeat(100_000)],
    ['{#', '{# '.repeat(100_000)],
    ['$t(', '$t( ('.repeat(100_000)],
    ['openers with their closers out of reach', `${'{{ { '.repeat(300)}}}`.repeat(300)],
    ['strings that never close', `${`{{ "${'x'.repeat(50)} }}`.repeat(50)}${'{{ \''.repeat(2000)}`.repeat(20)],
    ['a megabyte of mixed openers', '{{ {% {# <% $t( @: %{ "\' '.repeat(40_000)],
  ])('reads text full of unmatched %s in linear time', (_, text) => {
    // Quadratic work on these inputs would take minutes; the test timeout catches it.
    const found = findTemplateSyntax(text);
    for (const { start, end } of found) expect(end - start).toBeLessThanOrEqual(MAX_TAG_LENGTH);
  });
});
