/**
 * Password strength (zxcvbn-ts, score 0-4), loaded on first use: its dictionaries weigh far
 * more than the pages that show a meter, and nothing needs them before someone types a
 * new password.
 */
export type StrengthScore = 0 | 1 | 2 | 3 | 4;
export type StrengthCheck = (password: string, userInputs?: string[]) => StrengthScore;

let loading: Promise<StrengthCheck> | null = null;

export function loadStrengthCheck(): Promise<StrengthCheck> {
  loading ??= Promise.all([import('@zxcvbn-ts/core'), import('@zxcvbn-ts/language-common'), import('@zxcvbn-ts/language-en')]).then(
    ([core, common, english]) => {
      const zxcvbn = new core.ZxcvbnFactory({
        dictionary: { ...common.dictionary, ...english.dictionary },
        graphs: common.adjacencyGraphs,
        translations: english.translations,
      });
      return (password, userInputs = []) => zxcvbn.check(password, userInputs).score;
    },
  );
  // A failed load (offline) may work on the next keystroke.
  loading.catch(() => {
    loading = null;
  });
  return loading;
}
