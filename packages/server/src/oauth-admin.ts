/**
 * Operator commands of the OpenID Connect provider, against the configured database
 * (DATABASE_URL, or PGlite in DATA_DIR, which a running server holds: then the command refuses),
 * or, with PORTAL_URL and OPERATOR_API_KEY set, through that server's admin API (a changing
 * command then takes `--reason "..."` for the operator audit log):
 *
 *   npm run clients -- add --name "Outside App" --redirect-uri https://app.example/cb [--redirect-uri ...]
 *                          [--site https://app.example] [--logo ./logo.png or https://app.example/logo.png] [--public]
 *                          [--post-logout-uri https://app.example/] [--backchannel-logout-uri https://app.example/bcl] [--device-flow]
 *   npm run clients -- logo <client_id> <file or https URL>   a new logo (PNG, JPEG or WebP; served as our own 128 px WebP)
 *   npm run clients -- rotate <client_id>      a new secret (printed once); the old one stops working
 *   npm run clients -- list
 *   npm run clients -- remove <client_id>      the app, its consents and its tokens
 *   npm run signing-keys -- rotate [--now]     new signing keys (RS256, ES256): every node publishes them
 *                                              at its next key reload (OIDC_KEYS_RELOAD_SECONDS) and signs
 *                                              with them from 5 minutes on (--now: from each node's next
 *                                              reload, for a leaked key); the old ones stay published for a
 *                                              day after that
 *   npm run signing-keys -- drop <kid>         removes a key at once (a leaked one, after rotate --now)
 *   npm run signing-keys -- list
 */
import { oauthTool } from './cli/oauth-tool';
import { runTool } from './cli/run-tool';

runTool(oauthTool);
