/** The account module: self-service (emails, privacy, export, avatar) and deletion. */
export { createAccountService, type AccountService, type FactorProof, type SecondFactorVerifier } from './service';
export { cancelScheduledDeletion, claimRestoreToken, createDeletionService, deletionGate, type DeletionService } from './deletion';
export { accountRoutes } from './routes';
export { installDeletionPurgeJob, runDeletionPurge } from './purge';
export { emailChangeCodeMail } from './mail';
export { accountModule } from './module';
