/** A limit field: empty means no limit of its own (null), anything else a whole number. */
export const parseLimit = (text: string): number | null => (text.trim() === '' ? null : Number(text));

export const limitText = (value: number | null | undefined): string => (value === null || value === undefined ? '' : String(value));
