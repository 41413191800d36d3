/** The auth module: sign-up, activation, recovery, and the one sign-in pipeline every way in goes through. */
export { createAuthService, type AuthService, type NewAccount } from './service';
export { createRecoveryService, type RecoveryService } from './recovery';
export { createSignIn, type SignIn } from './sign-in';
export { withMfa, type Proven, type SignInMembership, type StepName, type WayIn } from './pipeline';
export { authRoutes } from './routes';
export { signInRoutes } from './sign-in-routes';
export { activationMail, passwordChangedMail, resetPasswordMail, signupExistingMail } from './mail';
export { registrationBrowser } from './registration-browser';
export { endPendingSignIns } from './pending';
export { authModule, type AuthMade, type CompanySsoMembership } from './module';
