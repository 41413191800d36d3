export const apiKeyErrors = {
  'api_keys.scope_missing': { status: 403, message: "Your account doesn't have permission to perform this action" },
  'api_keys.not_found': { status: 404, message: 'API key not found' },
  'api_keys.limit_reached': { status: 400, message: 'You can have at most {max} API keys. Revoke one first' },
} as const;
