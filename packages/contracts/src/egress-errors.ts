/** Refusals of URLs the server would request (identity providers, outside apps): the egress guard's rule. */
export const egressErrors = {
  'egress.url_refused': { status: 400, message: 'Enter a public https address: this one is not https, or it points to a private, local or cloud metadata address' },
} as const;
