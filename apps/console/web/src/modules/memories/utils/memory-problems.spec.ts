import { describe, expect, it } from 'vitest';
import { ApiProblem } from '../../../api/client';
import { adviceFor, createProblem, entryProblem, importProblem } from './memory-problems';

const refusal = (message: string, status = 422) => new ApiProblem(status, status === 422 ? 'invalid_request' : 'x', message);

describe('placing refusals beside their fields', () => {
  it('puts a refused name or source beside its field, and the rest above the form', () => {
    expect(createProblem(refusal('name must not be empty'))).toEqual({ field: 'name', message: 'Name must not be empty' });
    expect(createProblem(refusal('The name "default" belongs to the memory reviewers\' verdicts go to; choose another'))?.field).toBe('name');
    expect(createProblem(refusal('source must be one of the 24 official EU languages: bg, ...'))?.field).toBe('source');
    expect(createProblem(refusal('An account holds at most 20 sandbox memories, the default one included; delete one before creating another'))?.field).toBe('form');
    expect(createProblem(new ApiProblem(503, 'service_unavailable', 'The database is away'))).toEqual({ field: 'form', message: 'The database is away' });
    expect(createProblem(undefined)).toBeUndefined();
  });

  it('puts an import refusal beside the file unless it is about the format or a language', () => {
    expect(importProblem(refusal('The TMX file is not well-formed XML: line 3: unclosed tag'))).toEqual({ field: 'file', message: 'The TMX file is not well-formed XML: line 3: unclosed tag' });
    expect(importProblem(refusal('Request body is too large', 413))?.field).toBe('file');
    expect(importProblem(refusal('Say which format the file has: ?format=tmx'))?.field).toBe('format');
    expect(importProblem(refusal('This memory holds sources in "en"; source "fr" does not fit it'))?.field).toBe('source');
    expect(importProblem(refusal('target must be one of the 24 official EU languages'))?.field).toBe('target');
    expect(importProblem(new ApiProblem(404, 'not_found', 'Memory x not found'))?.field).toBe('form');
  });

  it('puts an entry refusal beside the source or the translation', () => {
    expect(entryProblem(refusal('the translation is empty'))).toEqual({ field: 'target', message: 'The translation is empty' });
    expect(entryProblem(refusal('the source is longer than 5000 characters'))?.field).toBe('source');
  });
});

describe('adviceFor', () => {
  it('says what to do by the kind of refusal', () => {
    expect(adviceFor(new ApiProblem(404, 'not_found', 'Memory x not found'))).toBe('not-found');
    expect(adviceFor(refusal('Request body is too large', 413))).toBe('file-split');
    expect(adviceFor(refusal('The memory would hold 100001 entries; a memory holds at most 100000', 413))).toBe('memory-full');
    expect(adviceFor(refusal('The PO file is invalid: line 2: ...'))).toBe('file-fix');
    expect(adviceFor(refusal('name must not be empty'))).toBeUndefined();
    expect(adviceFor(new TypeError('Failed to fetch'))).toBe('retry');
  });
});
