/** Periodic jobs: the runner; the jobs themselves live with the modules they serve (account: the deletion purge). */
export { installPeriodicJob, startPeriodicJob, type JobLogger, type JobOptions, type PeriodicJob } from './runner';
export { createDrain, type Drain } from './drain';
