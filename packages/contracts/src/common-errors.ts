/** What any endpoint may answer: validation, the session and permission refusals, limits, failures. */
export const commonErrors = {
  validation_error: { status: 400, message: 'Invalid data' },
  not_found: { status: 404, message: 'Resource not found' },
  unauthorized: { status: 401, message: 'Session expired, please login again' },
  forbidden: { status: 403, message: "Your account doesn't have permission to perform this action" },
  rate_limited: { status: 429, message: 'Too many requests. Try again in {second} seconds' },
  something_went_wrong: { status: 500, message: 'Something went wrong!' },
  payload_too_large: { status: 413, message: 'The request is too large' },
  unsupported_media_type: { status: 415, message: 'Unsupported content type' },
} as const;
