import { account } from './account';
import { batches } from './batches';
import { common } from './common';
import { glossaries } from './glossaries';
import { images } from './images';
import { keys } from './keys';
import { memories } from './memories';
import { modes } from './modes';
import { overview } from './overview';
import { passwordReset } from './password-reset';
import { review } from './review';
import { secondFactor } from './second-factor';
import { session } from './session';
import { signup } from './signup';
import { style } from './style';
import { users } from './users';
import { webhook } from './webhook';

/** Every string of the console in English: one catalogue, one object per feature. */
export const en = { ...common, ...session, ...passwordReset, ...signup, ...keys, ...users, ...account, ...images, ...modes, ...overview, ...glossaries, ...memories, ...style, ...batches, ...webhook, ...review, ...secondFactor };

export type MessageKey = keyof typeof en;
