import type { RouteObject } from 'react-router';
import { RequireSession } from '../session/components/RequireSession';
import { WebhookPage } from './components/WebhookPage';

export const webhookRoutes: RouteObject[] = [{ path: 'webhook', element: <RequireSession roles={['owner', 'member']}>{() => <WebhookPage />}</RequireSession> }];
