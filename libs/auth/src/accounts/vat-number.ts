/**
 * EU VAT identification numbers by their country's format, as the European Commission's VIES
 * describes them: the country prefix (EL for Greece, XI for Northern Ireland), then the national
 * part. Only the format is checked, not whether the number is registered: that is the operator's
 * check before approving production access. No Node: the console's browser app checks with the
 * same table before sending.
 */
export const EU_VAT_FORMATS: Record<string, { pattern: RegExp; rule: string; example: string }> = {
  AT: { pattern: /^ATU\d{8}$/, rule: 'ATU followed by 8 digits', example: 'ATU12345678' },
  BE: { pattern: /^BE[01]\d{9}$/, rule: 'BE followed by 10 digits, the first 0 or 1', example: 'BE0123456789' },
  BG: { pattern: /^BG\d{9,10}$/, rule: 'BG followed by 9 or 10 digits', example: 'BG123456789' },
  CY: { pattern: /^CY\d{8}[A-Z]$/, rule: 'CY followed by 8 digits and a letter', example: 'CY12345678X' },
  CZ: { pattern: /^CZ\d{8,10}$/, rule: 'CZ followed by 8 to 10 digits', example: 'CZ12345678' },
  DE: { pattern: /^DE\d{9}$/, rule: 'DE followed by 9 digits', example: 'DE123456789' },
  DK: { pattern: /^DK\d{8}$/, rule: 'DK followed by 8 digits', example: 'DK12345678' },
  EE: { pattern: /^EE\d{9}$/, rule: 'EE followed by 9 digits', example: 'EE123456789' },
  EL: { pattern: /^EL\d{9}$/, rule: 'EL followed by 9 digits', example: 'EL123456789' },
  ES: { pattern: /^ES[A-Z0-9]\d{7}[A-Z0-9]$/, rule: 'ES followed by 9 characters: digits, the first and the last may be letters', example: 'ESX1234567X' },
  FI: { pattern: /^FI\d{8}$/, rule: 'FI followed by 8 digits', example: 'FI12345678' },
  FR: { pattern: /^FR[A-HJ-NP-Z0-9]{2}\d{9}$/, rule: 'FR followed by 2 letters or digits and 9 digits', example: 'FR12345678901' },
  HR: { pattern: /^HR\d{11}$/, rule: 'HR followed by 11 digits', example: 'HR12345678901' },
  HU: { pattern: /^HU\d{8}$/, rule: 'HU followed by 8 digits', example: 'HU12345678' },
  IE: { pattern: /^IE(\d{7}[A-W][A-IW]?|\d[A-Z+*]\d{5}[A-W])$/, rule: 'IE followed by 8 or 9 characters: 7 digits and one or two letters', example: 'IE1234567T' },
  IT: { pattern: /^IT\d{11}$/, rule: 'IT followed by 11 digits', example: 'IT12345678901' },
  LT: { pattern: /^LT(\d{9}|\d{12})$/, rule: 'LT followed by 9 or 12 digits', example: 'LT123456789' },
  LU: { pattern: /^LU\d{8}$/, rule: 'LU followed by 8 digits', example: 'LU12345678' },
  LV: { pattern: /^LV\d{11}$/, rule: 'LV followed by 11 digits', example: 'LV12345678901' },
  MT: { pattern: /^MT\d{8}$/, rule: 'MT followed by 8 digits', example: 'MT12345678' },
  NL: { pattern: /^NL\d{9}B\d{2}$/, rule: 'NL followed by 9 digits, B and 2 digits', example: 'NL123456789B01' },
  PL: { pattern: /^PL\d{10}$/, rule: 'PL followed by 10 digits', example: 'PL1234567890' },
  PT: { pattern: /^PT\d{9}$/, rule: 'PT followed by 9 digits', example: 'PT123456789' },
  RO: { pattern: /^RO[1-9]\d{1,9}$/, rule: 'RO followed by 2 to 10 digits, not starting with 0', example: 'RO1234567890' },
  SE: { pattern: /^SE\d{10}01$/, rule: 'SE followed by 12 digits ending in 01', example: 'SE123456789701' },
  SI: { pattern: /^SI\d{8}$/, rule: 'SI followed by 8 digits', example: 'SI12345678' },
  SK: { pattern: /^SK\d{10}$/, rule: 'SK followed by 10 digits', example: 'SK1234567890' },
  XI: { pattern: /^XI(\d{9}|\d{12}|GD\d{3}|HA\d{3})$/, rule: 'XI followed by 9 or 12 digits', example: 'XI123456789' },
};

/** The number as VIES writes it: capitals, without the spaces, dots and dashes people type in it. */
export const normalizeVatNumber = (value: string) => value.replace(/[\s.-]/g, '').toUpperCase();

/**
 * Why the value is not an EU VAT number in its country's format, in words for the person who
 * typed it, or undefined when it is one. Messages start with "The VAT number".
 */
export function vatNumberProblem(value: string): string | undefined {
  const vat = normalizeVatNumber(value);
  const prefix = vat.slice(0, 2);
  const format = Object.hasOwn(EU_VAT_FORMATS, prefix) ? EU_VAT_FORMATS[prefix] : undefined;
  if (!format) {
    const greek = prefix === 'GR' ? ' (Greece’s is EL)' : '';
    return `The VAT number must start with the code of an EU country${greek}, e.g. DE123456789 or FR12345678901`;
  }
  return format.pattern.test(vat) ? undefined : `The VAT number does not have the format of ${prefix} numbers: ${format.rule}, e.g. ${format.example}`;
}
