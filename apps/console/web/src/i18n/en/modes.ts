export const modes = {
  'mode.label': 'Mode',
  'mode.live': 'Live',
  'mode.sandbox': 'Sandbox',
} as const;
