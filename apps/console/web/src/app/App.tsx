import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { ApiProblem } from '../api/client';
import { endSession, followOtherTabs } from '../modules/session/hooks/use-session';
import { routes } from './routes';

const router = createBrowserRouter(routes, { basename: '/console' });

/** A 401 anywhere means the session ended (idle, revoked elsewhere): back to sign-in, which says so. */
const onError = (error: Error) => {
  if (error instanceof ApiProblem && error.status === 401) endSession(queryClient, 'ended');
};

const queryClient: QueryClient = new QueryClient({
  queryCache: new QueryCache({ onError }),
  mutationCache: new MutationCache({ onError }),
  defaultOptions: {
    queries: {
      // A 4xx will not change by asking again; a dropped connection (status 0) may.
      retry: (count, error) => count < 2 && !(error instanceof ApiProblem && error.status > 0 && error.status < 500),
    },
  },
});

followOtherTabs(queryClient);

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  );
}
