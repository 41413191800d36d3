import type { BenchSection } from '../lib/types';
import { deployed } from './deployed';
import { httpThroughput } from './http-throughput';
import { lighthouseSection } from './lighthouse';
import { loginBundle } from './login-bundle';
import { oidcThroughput } from './oidc';
import { peopleSearch } from './people-search';
import { renewals } from './renewals';
import { sessionMemory } from './session-memory';
import { sessionRead } from './session-read';
import { signInThroughput } from './sign-in';
import { transfers } from './transfers';
import { webhooksSection } from './webhooks';

/** Every section, in the order `npm run bench` runs them. Add new sections here. */
export const sections: BenchSection[] = [httpThroughput, signInThroughput, sessionRead, deployed, sessionMemory, oidcThroughput, loginBundle, lighthouseSection, renewals, transfers, peopleSearch, webhooksSection];
