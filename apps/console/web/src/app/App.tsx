import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { ApiProblem } from '../api/client';
import { SESSION_QUERY } from '../modules/session/hooks/use-session';
import { routes } from './routes';

const router = createBrowserRouter(routes, { basename: '/console' });

/** A 401 anywhere means the session ended (idle, revoked elsewhere): back to sign-in. */
const onError = (error: Error) => {
  if (error instanceof ApiProblem && error.status === 401) queryClient.setQueryData(SESSION_QUERY, null);
};

const queryClient: QueryClient = new QueryClient({
  queryCache: new QueryCache({ onError }),
  mutationCache: new MutationCache({ onError }),
  defaultOptions: {
    queries: {
      // A 4xx will not change by asking again; a dropped connection may.
      retry: (count, error) => count < 2 && !(error instanceof ApiProblem && error.status < 500),
    },
  },
});

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  );
}
