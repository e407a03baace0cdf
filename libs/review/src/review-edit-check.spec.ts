import { describe, expect, it } from 'vitest';
import { checkEdit, describeEditProblems, editRules, type ReviewedText } from './review-edit-check';

const sofa = [{ term: 'sofa', translation: 'diván' }];

function check(text: Partial<ReviewedText> & Pick<ReviewedText, 'machineTranslation'>, edit: string) {
  const reviewed: ReviewedText = { format: 'text', sourceText: '', glossary: [], ...text };
  return checkEdit(editRules(reviewed), reviewed.machineTranslation, edit);
}

describe('the check of a reviewer edit', () => {
  it('finds variables and markup of the machine translation, a variable inside a tag being part of it', () => {
    const rules = editRules({ format: 'html', sourceText: '', glossary: [], machineTranslation: 'Hola {name}, <a href="{url}">pulsa</a> &amp; %1$s' });
    expect(rules.tokens.map(({ kind, text, start }) => [kind, text, start])).toEqual([
      ['variable', '{name}', 5],
      ['markup', '<a href="{url}">', 13],
      ['markup', '</a>', 34],
      ['markup', '&amp;', 39],
      ['variable', '%1$s', 45],
    ]);
  });

  it('takes template syntax for one variable, with the markup and entities it holds', () => {
    const rules = editRules({ format: 'html', sourceText: '', glossary: [], machineTranslation: 'Hola {% if a %}<b>{{ "<i>" }}</b>{% endif %} <% if (a && b) { %>' });
    expect(rules.tokens.map(({ kind, text }) => [kind, text])).toEqual([
      ['variable', '{% if a %}'],
      ['markup', '<b>'],
      ['variable', '{{ "<i>" }}'],
      ['markup', '</b>'],
      ['variable', '{% endif %}'],
      ['variable', '<% if (a && b) { %>'],
    ]);
    expect(check({ machineTranslation: 'Hola {% if a %}amigo{% endif %}.' }, 'Hola {% if a %}amiga{% endif %}.')).toEqual([]);
    expect(check({ machineTranslation: 'Hola {% if a %}amigo{% endif %}.' }, 'Hola {% si a %}amigo{% endif %}.')).toEqual([
      { kind: 'variable', text: '{% if a %}', expected: 1, found: 0 },
      { kind: 'variable', text: '{% si a %}', expected: 0, found: 1 },
    ]);
  });

  it('accepts a reworded edit that keeps every token, in another order', () => {
    expect(check({ machineTranslation: 'Hola {name}, tienes %d mensajes.' }, 'Tienes %d mensajes, {name}.')).toEqual([]);
  });

  it('names dropped, altered, doubled and added tokens', () => {
    const problems = check({ machineTranslation: 'Hola {name}, <b>hoy</b>.' }, 'Hola {nombre}, <b>hoy</b></b> %s.');
    expect(problems).toEqual([
      { kind: 'variable', text: '{name}', expected: 1, found: 0 },
      { kind: 'markup', text: '</b>', expected: 1, found: 2 },
      { kind: 'variable', text: '{nombre}', expected: 0, found: 1 },
      { kind: 'variable', text: '%s', expected: 0, found: 1 },
    ]);
    expect(describeEditProblems(problems)).toBe(
      'The edit must keep the variables, markup and glossary terms of the machine translation: variable {name} is missing; ' +
        'markup </b> is there 2 times instead of 1; variable {nombre} is not in the machine translation; variable %s is not in the machine translation',
    );
  });

  it('asks for each binding term as often as the source has it and the machine translation kept it, in any case', () => {
    const text = { sourceText: 'The sofa and the other sofa.', machineTranslation: 'El diván y el otro diván.', glossary: sofa };
    expect(editRules({ format: 'text', ...text }).terms).toEqual([{ term: 'sofa', translation: 'diván', count: 2 }]);
    expect(check(text, 'Diván y otro diván.')).toEqual([]);
    expect(check(text, 'El diván y el otro sofá.')).toEqual([{ kind: 'term', text: 'diván', term: 'sofa', expected: 2, found: 1 }]);
    expect(describeEditProblems(check(text, 'El sofá.'))).toContain('the glossary term "diván" (for "sofa") is missing');
  });

  it('does not ask for a term the machine translation could not keep, nor look for terms inside markup', () => {
    expect(editRules({ format: 'html', sourceText: '<p class="sofa">A chair.</p>', machineTranslation: '<p class="sofa">Una silla.</p>', glossary: sofa }).terms).toEqual([]);
    expect(editRules({ format: 'text', sourceText: 'The sofa.', machineTranslation: 'El sofá.', glossary: sofa }).terms).toEqual([]);
  });

  it('keeps a JSON document valid and its structure as it is', () => {
    const json = { format: 'json' as const, machineTranslation: '{"title":"Hola {name}","count":2}' };
    expect(check(json, '{"title": "Buenos días {name}", "count": 2}')).toEqual([]);
    expect(check(json, '{"title":"Hola {name}","count":3}')).toEqual([{ kind: 'json', text: 'keys, numbers, booleans, nulls and nesting must stay as they are; only string values change' }]);
    expect(check(json, '{"title":"Hola {name}"')).toEqual([{ kind: 'json', text: expect.stringMatching(/^the edit is not valid JSON \(/) }]);
  });
});
