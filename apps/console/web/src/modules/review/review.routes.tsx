import type { RouteObject } from 'react-router';
import { RequireSession } from '../session/components/RequireSession';
import { ReviewPage } from './components/ReviewPage';

export const reviewRoutes: RouteObject[] = [{ path: 'review', element: <RequireSession roles={['reviewer']}>{() => <ReviewPage />}</RequireSession> }];
