import type { RouteObject } from 'react-router';
import { RequireSession } from '../session/components/RequireSession';
import { StylePage } from './components/StylePage';

export const styleRoutes: RouteObject[] = [{ path: 'style', element: <RequireSession roles={['owner', 'member']}>{() => <StylePage />}</RequireSession> }];
