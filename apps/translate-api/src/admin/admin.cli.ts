import { runAdminCommand } from '@platform/service-kit';
import { TranslateApiConfig } from '../config/translate-api.config';
import { ADMIN_COMMANDS } from './admin.commands';
import { AdminModule } from './admin.module';

export const runAdmin = (config: TranslateApiConfig, args: string[]) => runAdminCommand(ADMIN_COMMANDS, AdminModule.forRoot(config), args);
