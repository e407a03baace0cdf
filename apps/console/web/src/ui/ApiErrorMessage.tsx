import { ApiProblem } from '../api/client';
import { useT } from '../i18n/i18n';

/** An error as the API worded it, announced to screen readers as it appears. */
export function ApiErrorMessage({ error }: { error: unknown }) {
  const t = useT();
  if (!error) return null;
  const message = error instanceof ApiProblem || error instanceof Error ? error.message : String(error);
  return (
    <div className="alert alert-error" role="alert">
      <strong>{t('error.title')}:</strong> {message}
    </div>
  );
}
