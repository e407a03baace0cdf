import 'reflect-metadata';
import { revertCommand, runMigrations, translationDomain } from '@platform/database';
import { runService } from '@platform/service-kit';
import { runAdmin } from './admin/admin.cli';
import { TranslateApiConfig } from './config/translate-api.config';
import { serveTranslateApi } from './translate-api.app';

void runService(TranslateApiConfig, {
  serve: serveTranslateApi,
  migrate: async (config) => {
    const applied = await runMigrations(config.DATABASE_URL, translationDomain);
    console.log(applied.length ? `applied: ${applied.join(', ')}` : 'translation schema is up to date');
  },
  'migrate:revert': (config, args) => revertCommand(config.DATABASE_URL, translationDomain, args),
  admin: runAdmin,
});
