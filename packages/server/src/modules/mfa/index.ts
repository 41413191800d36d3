/** The mfa module: the second factor (codes, TOTP, recovery codes, pending sign-ins) and its settings. */
export { createSecondFactorService, type FactorProof, type SecondFactorDependencies, type SecondFactorService } from './second-factor';
export { createMfaService, type MfaService } from './service';
export { mfaRoutes } from './routes';
export { loginCodeMail } from './mail';
export { mfaModule, type MfaMade } from './module';
