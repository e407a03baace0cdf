import type { RouteObject } from 'react-router';
import { RequireSession } from '../session/components/RequireSession';
import { UsersPage } from './components/UsersPage';

export const usersRoutes: RouteObject[] = [{ path: 'users', element: <RequireSession roles={['owner']}>{(session) => <UsersPage session={session} />}</RequireSession> }];
