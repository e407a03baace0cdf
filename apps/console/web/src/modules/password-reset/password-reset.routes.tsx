import type { RouteObject } from 'react-router';
import { ForgotPasswordPage } from './components/ForgotPasswordPage';
import { ResetPasswordPage } from './components/ResetPasswordPage';

/** Pages without a session: asking for a reset link, and the page the mailed link opens. */
export const passwordResetRoutes: RouteObject[] = [
  { path: 'forgot-password', element: <ForgotPasswordPage /> },
  { path: 'reset-password', element: <ResetPasswordPage /> },
];
