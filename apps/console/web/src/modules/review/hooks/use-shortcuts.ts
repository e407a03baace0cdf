import { useEffect, useRef } from 'react';

export interface Shortcuts {
  approve?: () => void;
  save?: () => void;
  next?: () => void;
  previous?: () => void;
}

/** Where J and K are letters being typed, not moves: fields, and the editor with its chips. */
const isTyping = (target: EventTarget | null) => target instanceof Element && target.closest('input, textarea, select, [contenteditable="true"], .token-editor') !== null;

/**
 * The workspace's keys, on the whole page: Ctrl+Enter (or Cmd+Enter) approves and Ctrl+S saves
 * the edit wherever the focus is; J and K move to the next and previous task outside the editor.
 */
export function useShortcuts(shortcuts: Shortcuts) {
  const current = useRef(shortcuts);
  current.current = shortcuts;
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      const { approve, save, next, previous } = current.current;
      const command = event.ctrlKey || event.metaKey;
      let action: (() => void) | undefined;
      if (command && !event.altKey && event.key === 'Enter') action = approve;
      else if (command && !event.altKey && event.key.toLowerCase() === 's') action = save;
      else if (!command && !event.altKey && !event.shiftKey && !isTyping(event.target)) action = event.key === 'j' ? next : event.key === 'k' ? previous : undefined;
      if (!action) return;
      event.preventDefault();
      action();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, []);
}
