import { randomUUID } from 'node:crypto';
import {
  invitationSignUpPath,
  isLanguage,
  MODERATOR_INVITATION_VALID_DAYS,
  MODERATOR_TOKEN_PREFIX,
  moderatorConfirmationPath,
  serviceCatalogue,
  type BrandId,
  type InnerService,
  type InvitationStatus,
  type Language,
  type Moderator,
  type ModeratorInvitationPreview,
  type ModeratorInviteRequest,
  type ServiceScope,
} from '@portal/contracts';
import { originFor } from '../../platform/brand';
import type { InvitationServiceDependencies } from '../../platform/invitation-dependencies';
import { randomToken, sha256 } from '../../platform/crypto';
import { AppError } from '../../platform/errors';
import { sendInBackground } from '../../platform/mail';
import { limits, rateKey, rateLimited } from '../../platform/rate-limit';
import type { RequestOrigin } from '../../platform/request-origin';
import { createNotifications } from '../notifications';
import { createUserService } from '../users';
import { moderatorInvitationMail } from './mail';
import { moderatorQueries, type ModeratorRow, type WebsiteKey } from './queries';

/** The product's back end calling: its first-party client and service scope. */
export interface ProductCaller {
  clientId: string;
  serviceScope: string;
}

export type ModeratorDependencies = InvitationServiceDependencies;

export type ModeratorService = ReturnType<typeof createModeratorService>;

const DAY_MS = 24 * 60 * 60 * 1000;

type Refusal = 'moderators.invitation_used' | 'moderators.invitation_revoked' | 'moderators.invitation_expired';
const refusalOf: Record<Exclude<InvitationStatus, 'pending'>, Refusal> = {
  accepted: 'moderators.invitation_used',
  revoked: 'moderators.invitation_revoked',
  expired: 'moderators.invitation_expired',
};

function statusOf(row: ModeratorRow, now: Date): InvitationStatus {
  if (row.revokedAt) return 'revoked';
  if (row.acceptedAt) return 'accepted';
  return row.expiresAt.getTime() <= now.getTime() ? 'expired' : 'pending';
}

const productName = (serviceScope: string) => serviceCatalogue[serviceScope as ServiceScope | InnerService]?.name ?? serviceScope;
/** The brand of the product's mails and links: the password-manager family's, or the platform's. */
const brandOf = (serviceScope: string): BrandId => (serviceCatalogue[serviceScope as ServiceScope | InnerService]?.theme === 'locker' ? 'locker' : 'platform');

/**
 * Moderators of a product's websites. A product's back end invites an email per
 * website (idempotent: one live row per product, website and email); the mailed link's token
 * is stored only as its SHA-256, used once (accepting is one conditional UPDATE) and expires
 * after MODERATOR_INVITATION_VALID_DAYS. A person with an account accepts on the result
 * screen, signed in as the invited email; one without signs up from the link and is accepted
 * once the account is activated. Accepted moderators receive the website's notifications.
 */
export function createModeratorService(deps: ModeratorDependencies) {
  const { clock, limiter } = deps;
  const queries = moderatorQueries(deps.db);
  const users = createUserService(deps.db);

  const toModerator = (row: ModeratorRow, now: Date): Moderator => ({
    id: row.id,
    website_id: row.websiteId,
    website_name: row.websiteName,
    email: row.email,
    status: statusOf(row, now),
    user_id: row.acceptedAt ? row.userId : null,
    invited_at: row.createdAt.toISOString(),
    expires_at: row.expiresAt.toISOString(),
    accepted_at: row.acceptedAt?.toISOString() ?? null,
  });

  async function activeAccount(email: string) {
    const user = await users.findByEmail(email);
    return user?.activatedAt && !user.purgedAt ? user : undefined;
  }

  /** A new token: prefixed, so /register/:id tells it from an organization's. */
  const newToken = () => `${MODERATOR_TOKEN_PREFIX}${randomToken()}`;

  /** Mails the link: the result screen for an email with an account, sign-up otherwise; in the inviter's language, else the account's. */
  async function mail(row: ModeratorRow, token: string, product: ProductCaller): Promise<void> {
    const account = await activeAccount(row.email);
    const brand = brandOf(product.serviceScope);
    const lang: Language = isLanguage(row.language) ? row.language : account && isLanguage(account.language) ? account.language : 'en';
    const path = account ? moderatorConfirmationPath(token) : invitationSignUpPath(token);
    const rendered = moderatorInvitationMail({ lang, brand, name: account?.fullName ?? undefined, website: row.websiteName, product: productName(product.serviceScope), link: `${originFor(deps.config, brand)}${path}` });
    sendInBackground(deps.mailer, deps.log, { to: row.email, ...rendered });
  }

  /** Mails counted per product and per invited email (atomic counters of the limiter), before anything is stored. */
  async function throttle(product: ProductCaller, email: string): Promise<void> {
    rateLimited(await limiter.consume(rateKey(limits.moderatorInvitationsPerProduct, product.clientId), limits.moderatorInvitationsPerProduct));
    rateLimited(await limiter.consume(rateKey(limits.moderatorInvitationsPerEmail, email), limits.moderatorInvitationsPerEmail));
  }

  async function byToken(token: string): Promise<ModeratorRow> {
    const row = await queries.byTokenHash(sha256(token));
    if (!row) throw new AppError('moderators.invitation_invalid');
    return row;
  }

  /** Why a token cannot be used now (re-read after a lost race: it was taken or withdrawn meanwhile). */
  async function refusal(row: ModeratorRow): Promise<AppError> {
    const fresh = (await queries.byId(row.id)) ?? row;
    const status = statusOf(fresh, clock.now());
    return new AppError(status === 'pending' ? 'moderators.invitation_invalid' : refusalOf[status]);
  }

  const website = (product: ProductCaller, websiteId: string): WebsiteKey => ({ clientId: product.clientId, websiteId });

  return {
    /**
     * Invites an email to moderate a website. A live invitation or moderator is answered as it
     * is (`created: false`; a changed website name is kept); an expired invitation gets a new
     * link; otherwise a new one is stored and mailed (`created: true`).
     */
    async invite(product: ProductCaller, websiteId: string, input: ModeratorInviteRequest): Promise<{ moderator: Moderator; created: boolean }> {
      const key = website(product, websiteId);
      const now = clock.now();
      const existing = await queries.liveOf(key, input.email);
      if (existing && statusOf(existing, now) !== 'expired') {
        if (existing.websiteName !== input.website_name) await queries.rename(existing.id, input.website_name);
        return { moderator: toModerator({ ...existing, websiteName: input.website_name }, now), created: false };
      }
      await throttle(product, input.email);
      const token = newToken();
      const expiresAt = new Date(now.getTime() + MODERATOR_INVITATION_VALID_DAYS * DAY_MS);
      if (existing) {
        const renewed = await queries.renew(existing.id, sha256(token), expiresAt, input.website_name, input.language ?? null);
        if (renewed) {
          await mail(renewed, token, product);
          return { moderator: toModerator(renewed, now), created: false };
        }
      }
      const inserted = await queries.insert({
        id: randomUUID(),
        clientId: product.clientId,
        serviceScope: product.serviceScope,
        websiteId,
        websiteName: input.website_name,
        email: input.email,
        language: input.language ?? null,
        tokenHash: sha256(token),
        expiresAt,
        createdAt: now,
      });
      if (!inserted) {
        // A parallel request stored it first (or accepted/renewed it): its row is the answer.
        const winner = await queries.liveOf(key, input.email);
        if (!winner) throw new AppError('moderators.not_found');
        return { moderator: toModerator(winner, now), created: false };
      }
      await mail(inserted, token, product);
      return { moderator: toModerator(inserted, now), created: true };
    },

    async list(product: ProductCaller, websiteId: string): Promise<{ items: Moderator[] }> {
      const now = clock.now();
      return { items: (await queries.listOf(website(product, websiteId))).map((row) => toModerator(row, now)) };
    },

    async revoke(product: ProductCaller, websiteId: string, moderatorId: string): Promise<void> {
      if (!(await queries.revoke(website(product, websiteId), moderatorId, clock.now()))) throw new AppError('moderators.not_found');
    },

    /** A security-analysis notification of the website for each accepted moderator (one statement): how many got it. */
    async notify(product: ProductCaller, websiteId: string, input: { title: string; body?: string; report_id?: string }): Promise<{ delivered: number }> {
      const userIds = await queries.acceptedUserIds(website(product, websiteId));
      const delivered = await createNotifications(deps, userIds, {
        type: 'other',
        title: input.title,
        body: input.body ?? '',
        metadata: input.report_id ? { report_id: input.report_id } : {},
        target: 'owner',
      });
      return { delivered };
    },

    /** The link before signing in (counted per address): the website, the product, the email and status, whether it has an account. */
    async preview(token: string, origin: RequestOrigin): Promise<ModeratorInvitationPreview> {
      rateLimited(await limiter.consume(rateKey(limits.invitationLinksPerIp, origin.limitAddress), limits.invitationLinksPerIp));
      const row = await byToken(token);
      return {
        website_name: row.websiteName,
        product: productName(row.serviceScope),
        email: row.email,
        status: statusOf(row, clock.now()),
        has_account: Boolean(await activeAccount(row.email)),
      };
    },

    /** The signed-in account accepts an invitation mailed to its email: once, whoever else tries at the same time. */
    async accept(actor: { id: string; email: string }, token: string): Promise<{ website_name: string; product: string }> {
      const row = await byToken(token);
      const status = statusOf(row, clock.now());
      if (status !== 'pending') throw new AppError(refusalOf[status]);
      if (row.email !== actor.email.toLowerCase()) throw new AppError('moderators.invitation_other_person');
      const accepted = await queries.accept(row.id, actor.id, clock.now());
      if (!accepted) throw await refusal(row);
      return { website_name: accepted.websiteName, product: productName(accepted.serviceScope) };
    },

    /** The invited person signs up from the link: accepted once the account is activated (acceptOnActivation). */
    async claimForSignUp(token: string, origin: RequestOrigin): Promise<void> {
      rateLimited(await limiter.consume(rateKey(limits.invitationLinksPerIp, origin.limitAddress), limits.invitationLinksPerIp));
      const row = await byToken(token);
      const status = statusOf(row, clock.now());
      if (status !== 'pending') throw new AppError(refusalOf[status]);
      if (!(await queries.claimForSignUp(row.id, clock.now()))) throw await refusal(row);
    },

    /** An account was activated (auth's afterActivation): the invitations its email signed up from are accepted. */
    async acceptOnActivation(user: { id: string; email: string }): Promise<void> {
      await queries.acceptClaimed(user.email.toLowerCase(), user.id, clock.now());
    },
  };
}
