import { ApiError } from '@platform/errors';
import type { FastifyRequest } from 'fastify';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';

/** A received file, kept on disk until the request is answered. */
export interface UploadedFile {
  filename: string;
  path: string;
  size: number;
}

export interface Upload {
  files: UploadedFile[];
  /** Text fields by name; a repeated field keeps its last value. */
  fields: Record<string, string>;
}

export interface UploadLimits {
  /** Field names that carry files; a file under any other name is refused. */
  fileFields: string[];
  maxFiles: number;
  maxFileBytes: number;
}

/**
 * Runs once, when the first file part arrives, with the text fields that came before it; it
 * throws to refuse the upload before any file byte is read.
 */
export type BeforeFirstFile = (fieldsSoFar: Record<string, string>) => Promise<void>;

/** Text fields are parameters such as quality; none is anywhere near this long. */
const MAX_FIELD_BYTES = 1024;
const MAX_FIELDS = 16;

/**
 * Gives `use` a fresh directory under the system's temp directory for one request's files and
 * removes it afterwards, whatever happened.
 */
export async function withUploadDirectory<T>(use: (directory: string) => Promise<T>): Promise<T> {
  const directory = await mkdtemp(path.join(tmpdir(), 'image-upload-'));
  try {
    return await use(directory);
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

/**
 * Reads a multipart/form-data request part by part: text fields into memory (small and
 * capped), each file streamed into `directory`, at most `maxFileBytes` each and `maxFiles` in
 * all. Parameters may follow the files, so they are known only at the end; `beforeFirstFile`
 * lets the caller refuse the upload (an `access_token` field that did not come before the
 * files, say) before the first file byte is read. Whatever is refused midway leaves the rest of
 * the body unread.
 */
export async function readUpload(request: FastifyRequest, directory: string, limits: UploadLimits, beforeFirstFile: BeforeFirstFile): Promise<Upload> {
  if (!request.isMultipart()) throw new ApiError(415, 'unsupported_media_type', 'The request must be multipart/form-data');
  const upload: Upload = { files: [], fields: {} };
  try {
    const parts = request.parts({
      limits: { fileSize: limits.maxFileBytes, files: limits.maxFiles, fields: MAX_FIELDS, fieldSize: MAX_FIELD_BYTES, parts: limits.maxFiles + MAX_FIELDS },
    });
    for await (const part of parts) {
      if (part.type === 'file') {
        if (!limits.fileFields.includes(part.fieldname)) {
          throw ApiError.invalidParameter(`Unexpected file field "${part.fieldname}"; send images as ${limits.fileFields.map((f) => `"${f}"`).join(' or ')}`);
        }
        if (upload.files.length === 0) await beforeFirstFile({ ...upload.fields });
        const file = path.join(directory, String(upload.files.length));
        // Past the cap busboy would read on to the end of the part, however far that is.
        part.file.once('limit', () => part.file.destroy(fileTooLarge(limits)));
        await pipeline(part.file, createWriteStream(file));
        upload.files.push({ filename: part.filename, path: file, size: part.file.bytesRead });
      } else {
        if (part.valueTruncated) throw ApiError.invalidParameter(`Field "${part.fieldname}" is longer than ${MAX_FIELD_BYTES} bytes`);
        upload.fields[part.fieldname] = typeof part.value === 'string' ? part.value : JSON.stringify(part.value);
      }
    }
  } catch (error) {
    throw uploadError(error, limits);
  }
  return upload;
}

const fileTooLarge = (limits: UploadLimits) => ApiError.payloadTooLarge(`Each file may have at most ${limits.maxFileBytes} bytes`);

/** Errors of the multipart parser, in our envelope. */
function uploadError(error: unknown, limits: UploadLimits): unknown {
  if (error instanceof ApiError) return error;
  const code = (error as { code?: string }).code;
  switch (code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return fileTooLarge(limits);
    case 'FST_FILES_LIMIT':
      return ApiError.payloadTooLarge(limits.maxFiles === 1 ? 'Send one file per request; /convert/batch takes several' : `At most ${limits.maxFiles} files per request`);
    case 'FST_PARTS_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return ApiError.payloadTooLarge('The form has too many parts');
    case 'FST_PROTO_VIOLATION':
      return ApiError.invalidParameter('Field names may not be names of object properties');
    default:
      return new ApiError(400, 'malformed_multipart', 'The multipart/form-data body is malformed or ended early');
  }
}
