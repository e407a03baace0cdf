import { describe, expect, it } from 'vitest';
import { serialise, stateFromText, withSegment, withTokenMoved } from './token-editor-state';

const tokens = [{ text: '{name}' }, { text: '<b>' }, { text: '</b>' }];
const text = 'Sveiki {name}, <b>dīvāns</b> ir sarkans.';

describe('the token editor state', () => {
  it('splits a text at its tokens and writes it back byte for byte', () => {
    const state = stateFromText(text, tokens)!;
    expect(state).toEqual({ segments: ['Sveiki ', ', ', 'dīvāns', ' ir sarkans.'], order: [0, 1, 2] });
    expect(serialise(state, tokens)).toBe(text);
    expect(stateFromText('plain', [])).toEqual({ segments: ['plain'], order: [] });
    // A style profile's do-not-translate terms are words, found only when the profile names them.
    const kept = [{ text: 'Notion' }, { text: 'Windows' }];
    expect(stateFromText('Abre Notion en Windows.', kept)).toBeNull();
    expect(stateFromText('Abre Notion en Windows.', kept, [{ term: 'Notion', caseSensitive: true }, { term: 'Windows', caseSensitive: true }])).toEqual({
      segments: ['Abre ', ' en ', '.'],
      order: [0, 1],
    });
  });

  it('edits text between tokens and moves tokens, never losing one', () => {
    const state = withTokenMoved(withSegment(stateFromText(text, tokens)!, 0, 'Labdien, '), 0, 1);
    expect(serialise(state, tokens)).toBe('Labdien, <b>, {name}dīvāns</b> ir sarkans.');
    expect(withTokenMoved(state, 2, 1)).toBe(state);
    expect(withTokenMoved(state, 0, -1)).toBe(state);
  });

  it('takes a plain-text edit back only with exactly the task\u2019s tokens, in any order', () => {
    expect(stateFromText('<b>dīvāns</b> {name}', tokens)).toEqual({ segments: ['', 'dīvāns', ' ', ''], order: [1, 2, 0] });
    expect(stateFromText('<b>dīvāns</b>', tokens)).toBeNull();
    expect(stateFromText('<b>dīvāns</b> {vārds}', tokens)).toBeNull();
  });
});
