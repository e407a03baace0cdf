import type { RouteObject } from 'react-router';
import { RequireSession } from '../session/components/RequireSession';
import { GlossariesPage } from './components/GlossariesPage';
import { GlossaryPage } from './components/GlossaryPage';

const CUSTOMER = ['owner', 'member'] as const;

export const glossariesRoutes: RouteObject[] = [
  { path: 'glossaries', element: <RequireSession roles={[...CUSTOMER]}>{() => <GlossariesPage />}</RequireSession> },
  { path: 'glossaries/:id', element: <RequireSession roles={[...CUSTOMER]}>{() => <GlossaryPage />}</RequireSession> },
];
