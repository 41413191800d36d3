/** Median of a list of figures (the mean of the two middle ones for an even count). */
export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/** A comparison measured in alternating rounds: the reference's and the subject's, in the order they ran. */
export interface Alternated<T> {
  reference: T[];
  subject: T[];
  /** Each subject round's rate over the mean of the reference rounds just before and after it. */
  ratios: number[];
  /** Their median: the figure a target is read against. */
  ratio: number;
}

/**
 * Runs `rounds` rounds of the subject, each between two rounds of the reference (R S R S ... R),
 * and divides each subject round by the mean of the reference rounds either side of it. On a
 * shared 2-core machine the reference's own rate moved by a third from one round to the next;
 * a best-against-best ratio then landed either side of a target from run to run, while a
 * subject round read against its neighbours moves with the machine.
 */
export async function alternatingRounds<T>(rounds: number, reference: () => Promise<T>, subject: () => Promise<T>, rate: (round: T) => number): Promise<Alternated<T>> {
  const out: Alternated<T> = { reference: [await reference()], subject: [], ratios: [], ratio: Number.NaN };
  for (let round = 0; round < rounds; round++) {
    out.subject.push(await subject());
    out.reference.push(await reference());
    const around = (rate(out.reference[round]!) + rate(out.reference[round + 1]!)) / 2;
    out.ratios.push(rate(out.subject[round]!) / Math.max(around, 1e-9));
  }
  out.ratio = median(out.ratios);
  return out;
}
