/** The CSV writer is shared by every export (platform/csv.ts): the audit log's names stay. */
export { csvCell, csvRecord, neutraliseFormula } from '../../platform/csv';
