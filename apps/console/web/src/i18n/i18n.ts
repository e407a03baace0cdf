import { en, type MessageKey } from './en';

export type MessageValues = Record<string, string | number>;

/** A message of the catalogue with its `{name}` placeholders filled in. */
export function t(key: MessageKey, values: MessageValues = {}): string {
  return en[key].replace(/\{(\w+)\}/g, (match, name: string) => (name in values ? String(values[name]) : match));
}

/** The catalogue holds one language today; a second would be chosen here. */
export const useT = () => t;
