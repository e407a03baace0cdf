import { account } from './account';
import { common } from './common';
import { images } from './images';
import { keys } from './keys';
import { session } from './session';
import { users } from './users';

/** Every string of the console in English: one catalogue, one object per feature. */
export const en = { ...common, ...session, ...keys, ...users, ...account, ...images };

export type MessageKey = keyof typeof en;
