import 'reflect-metadata';
import { imageDomain, revertCommand, runMigrations } from '@platform/database';
import { runService } from '@platform/service-kit';
import { runAdmin } from './admin/admin.cli';
import { ImageApiConfig } from './config/image-api.config';
import { serveImageApi } from './image-api.app';

void runService(ImageApiConfig, {
  serve: serveImageApi,
  migrate: async (config) => {
    const applied = await runMigrations(config.DATABASE_URL, imageDomain);
    console.log(applied.length ? `applied: ${applied.join(', ')}` : 'image schema is up to date');
  },
  'migrate:revert': (config, args) => revertCommand(config.DATABASE_URL, imageDomain, args),
  admin: runAdmin,
});
