import type { RouteObject } from 'react-router';
import { RequireSession } from '../session/components/RequireSession';
import { KeysPage } from './components/KeysPage';

export const keysRoutes: RouteObject[] = [{ path: 'keys', element: <RequireSession roles={['owner', 'member']}>{(session) => <KeysPage session={session} />}</RequireSession> }];
