import { DynamicModule, Module } from '@nestjs/common';
import type { ConversionSettings } from './conversion.config';
import { CONVERSION_SETTINGS, ImageConverter } from './image-converter.service';
import { ImageObjectStore } from './image-object.store';

/** The converter and the image object store; needs StorageModule for the S3 client. */
@Module({})
export class ImageConversionModule {
  static forRoot(settings: ConversionSettings): DynamicModule {
    return {
      module: ImageConversionModule,
      global: true,
      providers: [{ provide: CONVERSION_SETTINGS, useValue: settings }, ImageConverter, ImageObjectStore],
      exports: [ImageConverter, ImageObjectStore],
    };
  }
}
