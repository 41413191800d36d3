/** The business plans' refusals: numeric codes of the spec (section 8). */
export const billingErrors = {
  '7013': { status: 400, message: 'The trial plan was applied for {email}' },
  '7014': {
    status: 400,
    message: 'A Locker account for this email exists. Cancel the current plan or use another email to register the business plan',
  },
  '7015': { status: 400, message: '{email} is in an Enterprise, leave it or use another email' },
} as const;
