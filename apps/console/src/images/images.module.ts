import { DynamicModule, Module } from '@nestjs/common';
import { DatabaseModule, imageDomain } from '@platform/database';
import { ImageTokensModule } from '@platform/image-tokens';
import { ConsoleConfig } from '../config/console.config';
import { ImagesController } from './images.controller';

/** The name of the connection to image-api's database. */
export const IMAGE_DATA_SOURCE = 'image';

/**
 * The image product's subscriptions and tokens, through a second connection to image-api's
 * schema (which image-api migrates). Without IMAGE_DATABASE_URL there is no token service and
 * every route answers images_not_connected.
 */
@Module({})
export class ImagesModule {
  static forRoot(config: ConsoleConfig): DynamicModule {
    const imports = config.IMAGE_DATABASE_URL
      ? [
          DatabaseModule.secondary(IMAGE_DATA_SOURCE, { ...config, DATABASE_URL: config.IMAGE_DATABASE_URL }, imageDomain),
          ImageTokensModule.forRoot(config, { dataSource: IMAGE_DATA_SOURCE }),
        ]
      : [];
    return { module: ImagesModule, imports, controllers: [ImagesController] };
  }
}
