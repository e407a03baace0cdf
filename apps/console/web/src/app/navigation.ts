import type { MessageKey } from '../i18n/en';
import type { Role } from '../modules/session/hooks/use-session';

export interface NavEntry {
  path: string;
  label: MessageKey;
  roles: Role[];
  /** What the section lists belongs to the mode the header's switch is on. */
  perMode?: boolean;
}

const CUSTOMER: Role[] = ['owner', 'member'];

/** The sections in menu order; a user's home is the first one their role may open. */
export const NAVIGATION: NavEntry[] = [
  { path: '/overview', label: 'nav.overview', roles: CUSTOMER, perMode: true },
  { path: '/keys', label: 'nav.keys', roles: CUSTOMER, perMode: true },
  { path: '/glossaries', label: 'nav.glossaries', roles: CUSTOMER, perMode: true },
  { path: '/memories', label: 'nav.memories', roles: CUSTOMER, perMode: true },
  { path: '/style', label: 'nav.style', roles: CUSTOMER, perMode: true },
  { path: '/batches', label: 'nav.batches', roles: CUSTOMER, perMode: true },
  { path: '/webhook', label: 'nav.webhook', roles: CUSTOMER, perMode: true },
  { path: '/images', label: 'nav.images', roles: CUSTOMER },
  { path: '/review', label: 'nav.review', roles: ['reviewer'] },
  { path: '/users', label: 'nav.users', roles: ['owner'] },
  { path: '/account', label: 'nav.account', roles: ['owner', 'member', 'reviewer'] },
];

export const navigationFor = (role: Role) => NAVIGATION.filter((entry) => entry.roles.includes(role));

export const homeFor = (role: Role) => navigationFor(role)[0].path;

/** The per-mode section a path is in (its list page), if any. */
export const perModeSectionOf = (pathname: string) =>
  NAVIGATION.find((entry) => entry.perMode && (pathname === entry.path || pathname.startsWith(`${entry.path}/`)))?.path;
