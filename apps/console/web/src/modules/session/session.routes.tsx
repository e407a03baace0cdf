import type { RouteObject } from 'react-router';
import { AcceptInvitationPage } from './components/AcceptInvitationPage';
import { SignInPage } from './components/SignInPage';

/** Pages that need no session. */
export const sessionRoutes: RouteObject[] = [
  { path: 'sign-in', element: <SignInPage /> },
  { path: 'accept-invitation', element: <AcceptInvitationPage /> },
];
