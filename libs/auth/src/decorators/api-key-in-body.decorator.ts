import { SetMetadata } from '@nestjs/common';

export const API_KEY_BODY_FIELDS = 'auth:api-key-body-fields';

/**
 * Lets a route take the API key from one of these body fields when no Authorization header is
 * sent, for APIs whose clients put it there (LibreTranslate's `api_key`). The header wins.
 */
export const ApiKeyInBody = (...fields: string[]) => SetMetadata(API_KEY_BODY_FIELDS, fields);
