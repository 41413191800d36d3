/** The passkeys module: WebAuthn sign-up, the passkey way in to sign-in, and the account's passkeys. */
export { createPasskeyService, relyingParty, type PasskeyService } from './service';
export { passkeyRoutes } from './routes';
export { passkeysModule } from './module';
