import { runAdminCommand } from '@platform/service-kit';
import { ImageApiConfig } from '../config/image-api.config';
import { ADMIN_COMMANDS } from './admin.commands';
import { AdminModule } from './admin.module';

export const runAdmin = (config: ImageApiConfig, args: string[]) => runAdminCommand(ADMIN_COMMANDS, AdminModule.forRoot(config), args);
