import {
  DoNotTranslateMatcher,
  findMarkupLookalikes,
  findTemplateSyntax,
  findVariables,
  GlossaryMatcher,
  type DoNotTranslateTerm,
  type GlossaryTerms,
  type TextRange,
} from '@platform/translation-pipeline/text-spans';

/**
 * What a reviewer's edit must keep, and the check of an edit against it. Pure and free of Node,
 * so the console in the browser refuses the same edits before sending them as the server does.
 *
 * Everything is taken from the machine translation, which passed variables and markup through
 * byte for byte and has the glossary's binding terms in place: an edit keeps each variable,
 * piece of markup and do-not-translate term of the job's style profile exactly as often as the
 * machine translation has it (languages may reorder
 * them, never drop, alter or add one), and each binding term at least as often as both the
 * source asks for it and the machine translation has it.
 */

export type EditFormat = 'text' | 'html' | 'json';

export interface ProtectedToken extends TextRange {
  kind: 'variable' | 'markup' | 'do_not_translate';
  text: string;
}

/** A glossary term of the source whose binding translation an edit must keep `count` times. */
export interface RequiredTerm {
  term: string;
  translation: string;
  count: number;
}

export interface EditRules {
  format: EditFormat;
  /** The machine translation's variables, markup and do-not-translate terms, in order, with where they stand in it. */
  tokens: ProtectedToken[];
  terms: RequiredTerm[];
  /** The style profile's terms never to translate, so that an edit's are found as the machine translation's were. */
  doNotTranslate?: readonly DoNotTranslateTerm[];
}

export type EditProblem =
  | { kind: ProtectedToken['kind']; text: string; expected: number; found: number }
  | { kind: 'term'; text: string; term: string; expected: number; found: number }
  | { kind: 'json'; text: string };

export interface ReviewedText {
  format: EditFormat;
  sourceText: string;
  machineTranslation: string;
  /** The job's glossary for its language pair, as it was at submission; empty without one. */
  glossary: GlossaryTerms['entries'];
  /** The do-not-translate terms of the job's style profile, as it was at submission. */
  doNotTranslate?: readonly DoNotTranslateTerm[];
}

/**
 * Template syntax (a variable, whatever it holds), the markup outside it, the variables outside
 * both (a variable inside an attribute is part of its tag) and the do-not-translate terms outside
 * all of them, in text order.
 */
export function protectedTokens(text: string, doNotTranslate: readonly DoNotTranslateTerm[] = []): ProtectedToken[] {
  const token = (kind: ProtectedToken['kind']) => (range: TextRange) => ({ ...range, kind, text: text.slice(range.start, range.end) });
  const outside = (taken: TextRange[]) => (range: TextRange) => !taken.some((other) => range.start < other.end && other.start < range.end);
  const templates = findTemplateSyntax(text).map(token('variable'));
  const markup = findMarkupLookalikes(text).filter(outside(templates)).map(token('markup'));
  const variables = findVariables(text).filter(outside([...templates, ...markup])).map(token('variable'));
  const kept = doNotTranslate.length > 0 ? new DoNotTranslateMatcher(doNotTranslate).find(text).filter(outside([...templates, ...markup, ...variables])).map(token('do_not_translate')) : [];
  return [...templates, ...markup, ...variables, ...kept].sort((a, b) => a.start - b.start);
}

export function editRules({ format, sourceText, machineTranslation, glossary, doNotTranslate = [] }: ReviewedText): EditRules {
  const tokens = protectedTokens(machineTranslation, doNotTranslate);
  if (glossary.length === 0) return { format, tokens, terms: [], doNotTranslate };

  const asked = new Map<string, RequiredTerm>();
  for (const match of new GlossaryMatcher(glossary).find(blanked(sourceText, protectedTokens(sourceText)))) {
    const required = asked.get(termKey(match.translation)) ?? { term: match.term, translation: match.translation, count: 0 };
    asked.set(termKey(match.translation), { ...required, count: required.count + 1 });
  }
  const inTranslation = countTerms([...asked.values()], blanked(machineTranslation, tokens));
  const terms = [...asked.values()].map((term) => ({ ...term, count: Math.min(term.count, inTranslation.get(termKey(term.translation)) ?? 0) }));
  return { format, tokens, terms: terms.filter((term) => term.count > 0), doNotTranslate };
}

/** What is wrong with `edit`; empty when it keeps everything the rules ask for. */
export function checkEdit(rules: EditRules, machineTranslation: string, edit: string): EditProblem[] {
  const problems: EditProblem[] = [];
  if (rules.format === 'json') {
    const json = jsonProblem(machineTranslation, edit);
    if (json) problems.push(json);
  }

  const editTokens = protectedTokens(edit, rules.doNotTranslate);
  const expected = tally(rules.tokens);
  const found = tally(editTokens);
  for (const token of uniqueByText([...rules.tokens, ...editTokens])) {
    const want = expected.get(token.text) ?? 0;
    const have = found.get(token.text) ?? 0;
    if (want !== have) problems.push({ kind: token.kind, text: token.text, expected: want, found: have });
  }

  const terms = countTerms(rules.terms, blanked(edit, editTokens));
  for (const term of rules.terms) {
    const have = terms.get(termKey(term.translation)) ?? 0;
    if (have < term.count) problems.push({ kind: 'term', text: term.translation, term: term.term, expected: term.count, found: have });
  }
  return problems;
}

/** One sentence naming every problem, for the 422 answer and the editor alike. */
export function describeEditProblems(problems: EditProblem[]): string {
  const parts = problems.map((problem) => {
    if (problem.kind === 'json') return problem.text;
    const what =
      problem.kind === 'term' ? `the glossary term "${problem.text}" (for "${problem.term}")` : problem.kind === 'do_not_translate' ? `the do-not-translate term "${problem.text}"` : `${problem.kind} ${problem.text}`;
    if (problem.found === 0) return `${what} is missing`;
    if (problem.expected === 0) return `${what} is not in the machine translation`;
    return `${what} is there ${problem.found} ${problem.found === 1 ? 'time' : 'times'} instead of ${problem.expected}`;
  });
  return `The edit must keep the variables, markup and glossary terms of the machine translation: ${parts.join('; ')}`;
}

function jsonProblem(machineTranslation: string, edit: string): EditProblem | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(edit);
  } catch (error) {
    return { kind: 'json', text: `the edit is not valid JSON (${(error as Error).message})` };
  }
  return shape(parsed) === shape(JSON.parse(machineTranslation)) ? null : { kind: 'json', text: 'keys, numbers, booleans, nulls and nesting must stay as they are; only string values change' };
}

/** The JSON with every string emptied: what an edit of string values leaves alone. */
function shape(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) => (typeof inner === 'string' ? '' : inner));
}

/** Glossary terms are not looked for inside variables and markup, which no one translates. */
function blanked(text: string, ranges: TextRange[]): string {
  let result = '';
  let last = 0;
  for (const range of ranges) {
    result += text.slice(last, range.start) + ' '.repeat(range.end - range.start);
    last = range.end;
  }
  return result + text.slice(last);
}

/** Whitespace runs and case do not tell terms apart, as in glossary matching. */
const termKey = (term: string) => term.trim().split(/\s+/).join(' ').toLowerCase();

function countTerms(terms: RequiredTerm[], text: string): Map<string, number> {
  const counts = new Map<string, number>();
  if (terms.length === 0) return counts;
  for (const match of new GlossaryMatcher(terms.map(({ translation }) => ({ term: translation, translation }))).find(text)) {
    counts.set(termKey(match.term), (counts.get(termKey(match.term)) ?? 0) + 1);
  }
  return counts;
}

function tally(tokens: ProtectedToken[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const token of tokens) counts.set(token.text, (counts.get(token.text) ?? 0) + 1);
  return counts;
}

function uniqueByText(tokens: ProtectedToken[]): ProtectedToken[] {
  const seen = new Set<string>();
  return tokens.filter((token) => !seen.has(token.text) && seen.add(token.text));
}
