export * from './errors';
export * from './brands';
export * from './scopes';
export * from './constants';
export * from './runtime-config';
export * from './api/resources';
export * from './api/auth';
