import { ApiProblem } from '../api/client';
import type { MessageKey } from '../i18n/en';
import { useT } from '../i18n/i18n';

/**
 * A message as a sentence: the API's start with the field or the line they are about, in lower
 * case. A first word that is not a plain word (an address, an id) keeps its case.
 */
export const asSentence = (message: string) => (/^[a-z]+(?=[\s:])/.test(message) ? message.charAt(0).toUpperCase() + message.slice(1) : message);

/** What a customer can do about a refusal of this kind, when its message alone does not say. */
function adviceFor(error: unknown): MessageKey | undefined {
  if (!(error instanceof ApiProblem)) return undefined;
  if (error.code === 'unreachable') return 'error.unreachableAdvice';
  if (error.status >= 500) return 'error.serverAdvice';
  if (error.status === 404) return 'error.notFoundAdvice';
  if (error.status === 403 && error.code === 'forbidden') return 'error.forbiddenAdvice';
  return undefined;
}

/**
 * An error in the API's words, as a sentence, followed by what to do about it: the page's own
 * advice when it knows better, or else the advice for its kind. Announced as it appears.
 */
export function ApiErrorMessage({ error, hint }: { error: unknown; hint?: string }) {
  const t = useT();
  if (!error) return null;
  const message = error instanceof Error ? error.message : String(error);
  const advice = hint ?? (adviceFor(error) && t(adviceFor(error)!));
  return (
    <div className="alert alert-error" role="alert">
      <p>{asSentence(message)}</p>
      {advice && <p>{advice}</p>}
    </div>
  );
}
