/** The users module: the users table, its row type, its queries and its API shape. */
export { createUserService, mailLanguage, replyLanguage, type UserService } from './service';
export { identifierColumn, identifierLookup, type NewUserRow, type ProfileChanges, type UserRow } from './queries';
export { toUserDto } from './user-dto';
export { DEMO_EMAIL, seedDemoAccount } from './seed';
export { createPeopleService, statusOf, type PeopleActor, type PeopleDependencies, type PeopleService } from './people';
export { peopleAdminRoutes } from './admin-routes';
export { usersModule } from './module';
