export const modes = {
  'mode.label': 'Mode',
  'mode.live': 'Live',
  'mode.sandbox': 'Sandbox',
  'mode.switch': 'Sandbox',
  'mode.locked': 'Live opens once the account is activated:',
  'mode.lockedPending': 'Live opens once production access is approved:',
  'mode.lockedLink': 'Account page',
  'mode.band': 'Test data — sandbox.',
  'mode.bandDetail': 'Free keys and their data: nothing here is live or billed.',
} as const;
