import type { RouteObject } from 'react-router';
import { RequireSession } from '../session/components/RequireSession';
import { OverviewPage } from './components/OverviewPage';

export const overviewRoutes: RouteObject[] = [{ path: 'overview', element: <RequireSession roles={['owner', 'member']}>{() => <OverviewPage />}</RequireSession> }];
