import type { MessageKey } from '../i18n/en';
import type { Role } from '../modules/session/hooks/use-session';

export interface NavEntry {
  path: string;
  label: MessageKey;
  roles: Role[];
}

const CUSTOMER: Role[] = ['owner', 'member'];

/** The sections in menu order; a user's home is the first one their role may open. */
export const NAVIGATION: NavEntry[] = [
  { path: '/overview', label: 'nav.overview', roles: CUSTOMER },
  { path: '/keys', label: 'nav.keys', roles: CUSTOMER },
  { path: '/glossaries', label: 'nav.glossaries', roles: CUSTOMER },
  { path: '/memories', label: 'nav.memories', roles: CUSTOMER },
  { path: '/style', label: 'nav.style', roles: CUSTOMER },
  { path: '/batches', label: 'nav.batches', roles: CUSTOMER },
  { path: '/webhook', label: 'nav.webhook', roles: CUSTOMER },
  { path: '/images', label: 'nav.images', roles: CUSTOMER },
  { path: '/review', label: 'nav.review', roles: ['reviewer'] },
  { path: '/users', label: 'nav.users', roles: ['owner'] },
  { path: '/account', label: 'nav.account', roles: ['owner', 'member', 'reviewer'] },
];

export const navigationFor = (role: Role) => NAVIGATION.filter((entry) => entry.roles.includes(role));

export const homeFor = (role: Role) => navigationFor(role)[0].path;
