/** A base32 key in groups of four, as people type it off the screen. */
export const inGroups = (secret: string) => secret.match(/.{1,4}/g)?.join(' ') ?? secret;
