/**
 * The `/{product}_platform` calls of the products' own API, as one namespace
 * (`productEndpoints`); each is declared by the capability that serves it.
 */
export { productParams, productPatterns } from './product-platform';
export { pmUser, pmUserSchema } from './support-chat/endpoints';
export { onPremisePrelogin, onPremisePreloginRequestSchema, onPremiseResultSchema, type OnPremiseResult } from './organizations/on-premise-endpoints';
