import { describe, expect, it } from 'vitest';
import { EU_VAT_FORMATS, normalizeVatNumber, vatNumberProblem } from './vat-number';

describe('EU VAT numbers by their country’s format', () => {
  it.each(Object.entries(EU_VAT_FORMATS))('takes the example of %s and refuses it with four more digits', (country, { example }) => {
    expect(vatNumberProblem(example)).toBeUndefined();
    expect(vatNumberProblem(`${example}0000`)).toBe(`The VAT number does not have the format of ${country} numbers: ${EU_VAT_FORMATS[country].rule}, e.g. ${example}`);
  });

  it('covers the 27 member states and Northern Ireland', () => {
    expect(Object.keys(EU_VAT_FORMATS)).toHaveLength(28);
  });

  it.each([
    ['de 123.456-789', 'DE123456789'],
    ['nl 8554 87 654 b01', 'NL855487654B01'],
  ])('reads %j as %s', (typed, normal) => {
    expect(normalizeVatNumber(typed)).toBe(normal);
    expect(vatNumberProblem(typed)).toBeUndefined();
  });

  it.each([
    ['DE12345678', 'The VAT number does not have the format of DE numbers: DE followed by 9 digits, e.g. DE123456789'],
    ['ATU1234567A', 'The VAT number does not have the format of AT numbers: ATU followed by 8 digits, e.g. ATU12345678'],
    ['SE123456789702', 'The VAT number does not have the format of SE numbers: SE followed by 12 digits ending in 01, e.g. SE123456789701'],
    ['GR123456789', 'The VAT number must start with the code of an EU country (Greece’s is EL), e.g. DE123456789 or FR12345678901'],
    ['GB123456789', 'The VAT number must start with the code of an EU country, e.g. DE123456789 or FR12345678901'],
    ['123456789', 'The VAT number must start with the code of an EU country, e.g. DE123456789 or FR12345678901'],
    ['toString', 'The VAT number must start with the code of an EU country, e.g. DE123456789 or FR12345678901'],
  ])('refuses %j saying why', (value, problem) => {
    expect(vatNumberProblem(value)).toBe(problem);
  });
});
