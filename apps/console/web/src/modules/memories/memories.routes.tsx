import type { RouteObject } from 'react-router';
import { RequireSession } from '../session/components/RequireSession';
import { MemoriesPage } from './components/MemoriesPage';
import { MemoryPage } from './components/MemoryPage';

const CUSTOMER = ['owner', 'member'] as const;

export const memoriesRoutes: RouteObject[] = [
  { path: 'memories', element: <RequireSession roles={[...CUSTOMER]}>{() => <MemoriesPage />}</RequireSession> },
  { path: 'memories/:id', element: <RequireSession roles={[...CUSTOMER]}>{() => <MemoryPage />}</RequireSession> },
];
