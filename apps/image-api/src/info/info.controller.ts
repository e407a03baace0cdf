import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Public } from '@platform/service-kit';
import packageJson from '../../../../package.json';
import { ImageApiConfig } from '../config/image-api.config';
import { DEFAULT_FORMAT, DEFAULT_QUALITY, decodableInputFormats, MAX_FILES_PER_BATCH, OUTPUT_FORMATS } from '@platform/image-conversion';
import { InfoDto } from './dtos/info.dto';

export const SERVICE_TITLE = 'Image Conversion API';

@ApiTags('info')
@Public()
@Controller()
export class InfoController {
  /** Fixed for the life of the process: formats come from the libvips build loaded at start. */
  private readonly info: InfoDto;

  constructor(config: ImageApiConfig) {
    this.info = {
      name: SERVICE_TITLE,
      version: packageJson.version,
      formats: { input: decodableInputFormats(), output: [...OUTPUT_FORMATS] },
      defaults: { format: DEFAULT_FORMAT, quality: { ...DEFAULT_QUALITY } },
      limits: { max_file_bytes: config.MAX_FILE_BYTES, max_pixels: config.MAX_PIXELS, max_files_per_batch: MAX_FILES_PER_BATCH },
    };
  }

  @Get('info')
  @ApiOperation({ summary: 'Service version, supported formats, defaults and limits; no token needed' })
  @ApiOkResponse({ type: InfoDto })
  getInfo(): InfoDto {
    return this.info;
  }
}
