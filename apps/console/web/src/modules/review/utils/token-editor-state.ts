import { protectedTokens, type EditRules, type ProtectedToken } from '@platform/review/edit-check';

/**
 * The translation as the editor holds it: the free text between the protected tokens, and the
 * order of the tokens (indexes into the task's tokens). Text is edited, tokens are only moved:
 * none can be lost, and `serialise` always writes each of them exactly once.
 */
export interface TokenEditorState {
  /** One more than there are tokens: the text before the first token, between each, after the last. */
  segments: string[];
  order: number[];
}

/**
 * The state of `text` whose tokens are exactly the task's; null when they are not (a plain-text
 * edit that lost one). The task's do-not-translate terms are tokens too: they are found as words.
 */
export function stateFromText(text: string, tokens: readonly Pick<ProtectedToken, 'text'>[], doNotTranslate: EditRules['doNotTranslate'] = []): TokenEditorState | null {
  const found = protectedTokens(text, doNotTranslate);
  if (found.length !== tokens.length) return null;
  const unused = tokens.map((_, index) => index);
  const order: number[] = [];
  for (const token of found) {
    const at = unused.findIndex((index) => tokens[index].text === token.text);
    if (at < 0) return null;
    order.push(...unused.splice(at, 1));
  }
  const segments = found.map((token, index) => text.slice(index === 0 ? 0 : found[index - 1].end, token.start));
  return { segments: [...segments, text.slice(found.at(-1)?.end ?? 0)], order };
}

export function serialise(state: TokenEditorState, tokens: readonly Pick<ProtectedToken, 'text'>[]): string {
  return state.segments.map((segment, index) => segment + (index < state.order.length ? tokens[state.order[index]].text : '')).join('');
}

export function withSegment(state: TokenEditorState, index: number, text: string): TokenEditorState {
  return { ...state, segments: state.segments.map((segment, at) => (at === index ? text : segment)) };
}

/** The token at `position` swapped with its neighbour before (-1) or after (1); unchanged at either end. */
export function withTokenMoved(state: TokenEditorState, position: number, by: -1 | 1): TokenEditorState {
  const other = position + by;
  if (other < 0 || other >= state.order.length) return state;
  const order = [...state.order];
  [order[position], order[other]] = [order[other], order[position]];
  return { ...state, order };
}
