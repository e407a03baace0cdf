import { ApiError } from '@platform/errors';

export const imagesNotConnected = () =>
  new ApiError(404, 'images_not_connected', 'Image conversion is not connected to this console: the operator sets IMAGE_DATABASE_URL to the image service\'s database');
