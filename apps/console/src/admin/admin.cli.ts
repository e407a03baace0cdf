import { runAdminCommand } from '@platform/service-kit';
import { ConsoleConfig } from '../config/console.config';
import { ADMIN_COMMANDS } from './admin.commands';
import { AdminModule } from './admin.module';

export const runAdmin = (config: ConsoleConfig, args: string[]) => runAdminCommand(ADMIN_COMMANDS, AdminModule.forRoot(config), args);
