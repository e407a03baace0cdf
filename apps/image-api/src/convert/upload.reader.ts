import { ApiError } from '@platform/errors';
import type { FastifyRequest } from 'fastify';

export interface UploadedFile {
  filename: string;
  data: Buffer;
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

/** Text fields are parameters such as quality; none is anywhere near this long. */
const MAX_FIELD_BYTES = 1024;
const MAX_FIELDS = 16;

/**
 * Reads a whole multipart/form-data request into memory within the limits: each file up to
 * `maxFileBytes`, at most `maxFiles` files. The body is read completely before anything is
 * checked, since clients may send the parameters after the files.
 */
export async function readUpload(request: FastifyRequest, limits: UploadLimits): Promise<Upload> {
  if (!request.isMultipart()) throw new ApiError(415, 'unsupported_media_type', 'The request must be multipart/form-data');
  const upload: Upload = { files: [], fields: {} };
  try {
    const parts = request.parts({
      limits: { fileSize: limits.maxFileBytes, files: limits.maxFiles, fields: MAX_FIELDS, fieldSize: MAX_FIELD_BYTES, parts: limits.maxFiles + MAX_FIELDS },
    });
    for await (const part of parts) {
      if (part.type === 'file') {
        if (!limits.fileFields.includes(part.fieldname)) {
          await part.toBuffer().catch(() => undefined);
          throw ApiError.invalidParameter(`Unexpected file field "${part.fieldname}"; send images as ${limits.fileFields.map((f) => `"${f}"`).join(' or ')}`);
        }
        upload.files.push({ filename: part.filename, data: await part.toBuffer() });
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

/** Errors of the multipart parser, in our envelope. */
function uploadError(error: unknown, limits: UploadLimits): unknown {
  if (error instanceof ApiError) return error;
  const code = (error as { code?: string }).code;
  switch (code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return ApiError.payloadTooLarge(`Each file may have at most ${limits.maxFileBytes} bytes`);
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
