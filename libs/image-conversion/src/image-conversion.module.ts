import { DynamicModule, Module } from '@nestjs/common';
import { CONVERSION_SETTINGS, type ConversionSettings } from './conversion.config';
import { ImageConverter } from './image-converter.service';
import { ImageObjectStore } from './image-object.store';
import { loadMallocTrim } from './malloc-trim';
import { MALLOC_TRIM, NativeHeapTrimmer } from './native-heap-trimmer.service';

/** The converter and the image object store; needs StorageModule for the S3 client. */
@Module({})
export class ImageConversionModule {
  static forRoot(settings: ConversionSettings): DynamicModule {
    return {
      module: ImageConversionModule,
      global: true,
      providers: [
        { provide: CONVERSION_SETTINGS, useValue: settings },
        { provide: MALLOC_TRIM, useFactory: loadMallocTrim },
        NativeHeapTrimmer,
        ImageConverter,
        ImageObjectStore,
      ],
      exports: [ImageConverter, ImageObjectStore],
    };
  }
}
