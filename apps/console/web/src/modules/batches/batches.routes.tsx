import type { RouteObject } from 'react-router';
import { RequireSession } from '../session/components/RequireSession';
import { BatchesPage } from './components/BatchesPage';
import { BatchPage } from './components/BatchPage';

const CUSTOMER = ['owner', 'member'] as const;

export const batchesRoutes: RouteObject[] = [
  { path: 'batches', element: <RequireSession roles={[...CUSTOMER]}>{(session) => <BatchesPage session={session} />}</RequireSession> },
  { path: 'batches/:job', element: <RequireSession roles={[...CUSTOMER]}>{() => <BatchPage />}</RequireSession> },
];
