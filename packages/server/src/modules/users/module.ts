import type { Platform } from '../../platform/modules';
import { defineModule } from '../../platform/modules';
import { createUserService, type UserService } from './service';

/** Users: the accounts' directory other modules look people up in. */
export const usersModule = defineModule({
  name: 'users',
  create: ({ platform }: { platform: Platform }): UserService => createUserService(platform.db),
});
