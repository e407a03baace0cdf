import { describe, expect, it } from 'vitest';
import { parseForm } from './form-body';

describe('parseForm', () => {
  it('gives a field sent once as a string and a repeated one as an array in order', () => {
    expect(parseForm('text=Hello+world&text=caf%C3%A9&target_lang=DE&flag')).toEqual({ text: ['Hello world', 'café'], target_lang: 'DE', flag: '' });
  });

  it('keeps a literal plus written as %2B and takes no prototype keys from the body', () => {
    const fields = parseForm('text=1%2B1&__proto__=x');
    expect(fields.text).toBe('1+1');
    expect(Object.getPrototypeOf(fields)).toBe(Object.prototype);
    expect(fields['__proto__']).toBe('x');
  });

  it('refuses a malformed percent escape with 400', () => {
    expect(() => parseForm('text=%E0%A4%A')).toThrow(expect.objectContaining({ status: 400, message: expect.stringContaining('percent-encoded') }));
  });
});
