import type { ReactNode } from 'react';
import { Link, Navigate, useLocation } from 'react-router';
import { homeFor } from '../../../app/navigation';
import { useT } from '../../../i18n/i18n';
import { ApiErrorMessage } from '../../../ui/ApiErrorMessage';
import { PageHeader } from '../../../ui/PageHeader';
import { sessionEndReason, useSession, type Role, type Session } from '../hooks/use-session';

/** A page the user's role may not open: said, with the way home, rather than a silent redirect. */
function NoAccess({ role }: { role: Role }) {
  const t = useT();
  return (
    <>
      <PageHeader title={t('noAccess.title')} intro={t('noAccess.intro', { role: t(`role.${role}`) })} />
      <Link to={homeFor(role)}>{t('app.backHome')}</Link>
    </>
  );
}

/**
 * Pages behind sign-in: without a session, the sign-in page, which comes back here afterwards
 * and says why the session ended when one did.
 */
export function RequireSession({ children, roles }: { children: (session: Session) => ReactNode; roles?: Role[] }) {
  const t = useT();
  const location = useLocation();
  const { data: session, error, isPending } = useSession();
  if (isPending) return <p className="loading">{t('app.loading')}</p>;
  if (error) return <ApiErrorMessage error={error} />;
  if (!session) {
    const ended = sessionEndReason();
    const query = new URLSearchParams({ next: location.pathname + location.search, ...(ended && { ended }) });
    return <Navigate to={`/sign-in?${query}`} replace />;
  }
  if (roles && !roles.includes(session.user.role)) return <NoAccess role={session.user.role} />;
  return <>{children(session)}</>;
}
