/** Periodic jobs: the runner; the jobs themselves live with the modules they serve (account: the deletion purge). */
export { startPeriodicJob, type JobLogger, type PeriodicJob } from './runner';
