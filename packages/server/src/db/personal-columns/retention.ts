/** How long invoices, and records of money moved, are kept after the year they were made. */
export const ACCOUNTING_RETENTION_YEARS = 10;

// Vietnam's Law on Accounting (2015) art. 41 and Decree 174/2016 art. 12: accounting documents,
// invoices among them, are kept at least 10 years; Decree 123/2020 art. 10 puts the buyer's name
// and address on the invoice. After that the purge clears the billing name and address, and the
// counterparties of money movements, too (modules/account/purge-retention.ts).
export const invoice = { kept: `printed on the invoice; kept ${ACCOUNTING_RETENTION_YEARS} years after the end of its year (accounting law), then cleared` };
export const moneyRecord = { kept: `record of money moved (accounting law): kept ${ACCOUNTING_RETENTION_YEARS} years after the end of its year, then cleared` };
