import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { useT } from '../../../i18n/i18n';
import { ApiErrorMessage } from '../../../ui/ApiErrorMessage';
import { useSession, type Role, type Session } from '../hooks/use-session';

/** Pages behind sign-in: without a session, the sign-in page, which comes back here afterwards. */
export function RequireSession({ children, roles }: { children: (session: Session) => ReactNode; roles?: Role[] }) {
  const t = useT();
  const location = useLocation();
  const { data: session, error, isPending } = useSession();
  if (isPending) return <p className="loading">{t('app.loading')}</p>;
  if (error) return <ApiErrorMessage error={error} />;
  if (!session) return <Navigate to={`/sign-in?next=${encodeURIComponent(location.pathname + location.search)}`} replace />;
  if (roles && !roles.includes(session.user.role)) return <Navigate to="/" replace />;
  return <>{children(session)}</>;
}
