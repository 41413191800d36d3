/** The support-chat module: the Chatwoot identity of the signed-in user. */
export { supportChatRoutes } from './routes';
export { supportChatModule } from './module';
