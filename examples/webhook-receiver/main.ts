import { createWebhookReceiver } from './receiver.ts';

/**
 * Runs the example receiver: `WEBHOOK_SECRET=whsec_... PORT=5187 node main.ts` (Node 22.18+
 * runs TypeScript as is; on older Node, `npx tsx main.ts`). Each event is printed once.
 */
const secret = process.env.WEBHOOK_SECRET;
if (!secret) throw new Error('WEBHOOK_SECRET is required');
const port = Number(process.env.PORT ?? 5187);

const receiver = createWebhookReceiver({
  secret,
  async onEvent(event, id) {
    // `user.deleted`: the person asked the portal to erase their account; erase them here too.
    console.log(`${id} ${event.type} ${JSON.stringify(event.data)}`);
  },
});
receiver.listen(port, '127.0.0.1', () => console.log(`webhook receiver on http://127.0.0.1:${port}/`));
