import { API_KEY_PATTERN, type EndpointDeclaration, type OperatorRole } from '@portal/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config';
import { AppError } from '../../platform/errors';
import { installOperatorGuard } from '../../platform/http/route';
import { presentedToken, type SessionService } from '../sessions';
import type { UserRow } from '../users';
import { roleAllows, type OperatorService } from './service';

/** The operator behind an admin call: their account, their roles now, and the key they used (null for a session). */
export interface OperatorCaller {
  user: UserRow;
  roles: OperatorRole[];
  keyId: string | null;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the operator guard on every admin endpoint. */
    operator: OperatorCaller | null;
  }
}

/** The operator of an admin route's request (the guard ran before the handler). */
export function operatorOf(request: FastifyRequest): OperatorCaller {
  if (!request.operator) throw new AppError('admin.forbidden');
  return request.operator;
}

const USER_AGENT_MAX = 500;

/**
 * Guards every declared admin endpoint, in this order: a caller (401), an operator holding an
 * allowed role (403 admin.forbidden), for a key the endpoint's admin scope (403
 * admin.scope_missing), two-step verification on the account (403 admin.two_factor_required),
 * and for a session a proof of identity within REAUTH_MAX_AGE_SECONDS (403 auth.reauth_required).
 * Roles and the second factor are read from the database on every call: no cache outlives a
 * removed role on any node.
 */
export function installOperatorAccess(app: FastifyInstance, config: Config, sessions: SessionService, operators: OperatorService): void {
  app.decorateRequest('operator', null);

  const requireSession = (request: FastifyRequest, reply: FastifyReply) =>
    new Promise<void>((resolve, reject) => app.requireSession(request, reply, (error) => (error ? reject(error) : resolve())));

  async function check(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const need = request.routeOptions.config.operator;
    if (!need) throw new AppError('admin.forbidden');
    const token = presentedToken(request, config);
    if (token && API_KEY_PATTERN.test(token)) {
      const found = token.length <= 512 ? await operators.authenticateKey(token) : null;
      const standing = found && (await operators.standingOf(found.user.id));
      if (!found || !standing?.usable) throw new AppError('unauthorized');
      if (!roleAllows(standing.roles, need.operator)) throw new AppError('admin.forbidden');
      if (!found.scopes.includes(need.adminScope)) throw new AppError('admin.scope_missing', { scope: need.adminScope }, { scope: need.adminScope });
      if (!standing.twoFactor) throw new AppError('admin.two_factor_required');
      request.operator = { user: found.user, roles: standing.roles, keyId: found.keyId };
      return;
    }
    await requireSession(request, reply);
    const { user, session } = request.auth!;
    const standing = await operators.standingOf(user.id);
    if (!standing?.usable || !roleAllows(standing.roles, need.operator)) throw new AppError('admin.forbidden');
    if (!standing.twoFactor) throw new AppError('admin.two_factor_required');
    if (!(await sessions.provedWithin(session, config.REAUTH_MAX_AGE_SECONDS))) throw new AppError('auth.reauth_required');
    request.operator = { user, roles: standing.roles, keyId: null };
  }

  /** The audit row of a changing admin call: who, how, what, on what, why, from where. */
  function auditRow(request: FastifyRequest, declaration: EndpointDeclaration) {
    const operator = operatorOf(request);
    const params = (request.params ?? {}) as Record<string, unknown>;
    const target = Object.fromEntries(Object.entries(params).map(([key, value]) => [key, String(value)]));
    const reason = String((request.body as { reason?: unknown }).reason).trim();
    return {
      actorUserId: operator.user.id,
      actorEmail: operator.user.email,
      via: operator.keyId ? `key:${operator.keyId}` : 'session',
      action: `${declaration.method} ${declaration.path}`,
      summary: declaration.summary,
      target,
      reason,
      ip: request.ip,
      userAgent: request.headers['user-agent']?.slice(0, USER_AGENT_MAX) ?? null,
    };
  }

  installOperatorGuard(app, {
    check: (request, reply, done) => void check(request, reply).then(() => done(), done),
    recordedChange: (request, declaration, change) => operators.recorded(change, () => auditRow(request, declaration)),
  });
}
