import { adminPeopleEndpoints } from '@portal/contracts';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { Config } from '../../config';
import { route } from '../../platform/http/route';
import { requestOrigin } from '../../platform/request-origin';
import type { PeopleActor, PeopleService } from './people';

/**
 * People in the operators' console (/v3/admin/people). Who may call each one, the reason and
 * the operator audit log are the declarations' and platform/http's: nothing here repeats them.
 */
export function peopleAdminRoutes(config: Config, people: PeopleService, actorOf: (request: FastifyRequest) => PeopleActor): FastifyPluginAsync {
  return async (app) => {
    route(app, adminPeopleEndpoints.search, async (request) => people.search(request.query));
    route(app, adminPeopleEndpoints.person, async (request) => people.person(request.params.userId));
    route(app, adminPeopleEndpoints.lock, async (request) => people.lock(request.params.userId, actorOf(request)));
    route(app, adminPeopleEndpoints.unlock, async (request) => people.unlock(request.params.userId, actorOf(request)));
    route(app, adminPeopleEndpoints.endSessions, async (request) => people.endSessions(request.params.userId, actorOf(request)));
    route(app, adminPeopleEndpoints.resetSecondFactors, async (request) => people.resetSecondFactors(request.params.userId, actorOf(request), requestOrigin(request, config)));
    route(app, adminPeopleEndpoints.resendActivation, async (request) => people.resendActivation(request.params.userId, actorOf(request), requestOrigin(request, config)));
    route(app, adminPeopleEndpoints.startDeletion, async (request) => people.startDeletion(request.params.userId, actorOf(request), requestOrigin(request, config)));
  };
}
