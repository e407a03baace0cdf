import type { RouteObject } from 'react-router';
import { RequireSession } from '../session/components/RequireSession';
import { AccountPage } from './components/AccountPage';

export const accountRoutes: RouteObject[] = [{ path: 'account', element: <RequireSession>{(session) => <AccountPage session={session} />}</RequireSession> }];
