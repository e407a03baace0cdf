import type { RouteObject } from 'react-router';
import { RequireSession } from '../session/components/RequireSession';
import { ImagesPage } from './components/ImagesPage';

export const imagesRoutes: RouteObject[] = [{ path: 'images', element: <RequireSession roles={['owner', 'member']}>{() => <ImagesPage />}</RequireSession> }];
