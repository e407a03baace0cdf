import type { RouteObject } from 'react-router';
import { SignUpPage } from './components/SignUpPage';
import { VerifyEmailPage } from './components/VerifyEmailPage';

/** The pages of sign-up, before a session or without one: the mailed link may open in another browser. */
export const signupRoutes: RouteObject[] = [
  { path: 'sign-up', element: <SignUpPage /> },
  { path: 'verify-email', element: <VerifyEmailPage /> },
];
