import { useState } from 'react';

/**
 * An address set in two dialogs: its details, then the code mailed to it. `codeSentTo` opens
 * the code's dialog for that address; `close` closes either.
 */
export function useCodeSteps<Extra extends string = never>() {
  const [step, setStep] = useState<'idle' | 'details' | 'code' | Extra>('idle');
  const [pendingEmail, setPendingEmail] = useState('');
  const codeSentTo = (email: string) => {
    setPendingEmail(email);
    setStep('code');
  };
  return { step, setStep, pendingEmail, codeSentTo, close: () => setStep('idle') };
}
