import { Link, Navigate, type RouteObject } from 'react-router';
import { useT } from '../i18n/i18n';
import { accountRoutes } from '../modules/account/account.routes';
import { batchesRoutes } from '../modules/batches/batches.routes';
import { glossariesRoutes } from '../modules/glossaries/glossaries.routes';
import { imagesRoutes } from '../modules/images/images.routes';
import { keysRoutes } from '../modules/keys/keys.routes';
import { memoriesRoutes } from '../modules/memories/memories.routes';
import { overviewRoutes } from '../modules/overview/overview.routes';
import { passwordResetRoutes } from '../modules/password-reset/password-reset.routes';
import { reviewRoutes } from '../modules/review/review.routes';
import { RequireSession } from '../modules/session/components/RequireSession';
import { sessionRoutes } from '../modules/session/session.routes';
import { signupRoutes } from '../modules/signup/signup.routes';
import { styleRoutes } from '../modules/style/style.routes';
import { usersRoutes } from '../modules/users/users.routes';
import { webhookRoutes } from '../modules/webhook/webhook.routes';
import { PageHeader } from '../ui/PageHeader';
import { AppLayout } from './AppLayout';
import { homeFor } from './navigation';

function NotFound() {
  const t = useT();
  return (
    <>
      <PageHeader title={t('app.notFound')} />
      <Link to="/">{t('app.backHome')}</Link>
    </>
  );
}

/** Paths are relative to /console/, where the console app serves this page for every path. */
export const routes: RouteObject[] = [
  ...sessionRoutes,
  ...passwordResetRoutes,
  ...signupRoutes,
  {
    element: <AppLayout />,
    children: [
      { index: true, element: <RequireSession>{(session) => <Navigate to={homeFor(session.user.role)} replace />}</RequireSession> },
      ...overviewRoutes,
      ...keysRoutes,
      ...glossariesRoutes,
      ...memoriesRoutes,
      ...styleRoutes,
      ...batchesRoutes,
      ...webhookRoutes,
      ...imagesRoutes,
      ...usersRoutes,
      ...accountRoutes,
      ...reviewRoutes,
      { path: '*', element: <NotFound /> },
    ],
  },
];
