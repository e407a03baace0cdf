export const session = {
  'signIn.title': 'Sign in',
  'signIn.email': 'Email address',
  'signIn.password': 'Password',
  'signIn.submit': 'Sign in',
  'signIn.signUpLink': 'No account yet? Sign up',
  'signIn.expired': 'Your session has ended. Sign in again.',
  'invitation.title': 'Join your team',
  'invitation.intro': 'Choose a password for your new console user.',
  'invitation.password': 'New password',
  'invitation.hint': 'From 12 to 256 characters.',
  'invitation.submit': 'Set password and sign in',
  'invitation.missing': 'This link has no invitation token. Open the link exactly as you received it.',
} as const;
