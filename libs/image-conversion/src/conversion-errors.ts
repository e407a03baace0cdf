import { ApiError } from '@platform/errors';
import { decodableInputFormats } from './image-formats';

/** Client errors of image input. The image envelope shows the message; codes serve logs and metrics. */
export const ConversionErrors = {
  emptyFile: () => new ApiError(422, 'empty_file', 'The uploaded file is empty'),
  notAnImage: (detected?: string) =>
    new ApiError(
      415,
      'unsupported_media_type',
      `${detected ? `Images of type ${detected} are not accepted` : 'The file is not an image'}; accepted are ${decodableInputFormats().join(', ')}`,
    ),
  undecodable: () => new ApiError(415, 'undecodable_image', 'The image could not be decoded; it is truncated or corrupt'),
  tooManyPixels: (width: number, height: number, frames: number, max: number) =>
    new ApiError(
      422,
      'too_many_pixels',
      `The image is ${width}×${height}${frames > 1 ? ` in ${frames} frames` : ''} (${width * height * frames} pixels); at most ${max} pixels are accepted`,
    ),
};
