import { useState, type ChangeEvent } from 'react';
import { ApiError } from '../../lib/api-error';
import { snackbar } from '../snackbar/snackbar';
import { chosenImageProblem } from './chosen-image';

export type ImagePickTexts = {
  /** What the file should be, for the refusal: « une image ». */
  expected?: string;
  /** The snackbar's title when the chosen file is refused: « Photo non modifiée ». */
  refused: string;
  /** Shown in the crop dialog when the sending fails without the API's words. */
  failed: string;
};

/**
 * The state an image field keeps (decision 042), for the avatar and the logos alike: the file
 * chosen (checked, then cropped), its sending (the API's refusal shown in the crop dialog), and
 * the removal's pending state.
 */
export function useImagePick(texts: ImagePickTexts) {
  const [file, setFile] = useState<File | null>(null);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const choose = (event: ChangeEvent<HTMLInputElement>) => {
    const chosen = event.target.files?.[0];
    event.target.value = '';
    if (!chosen) return;
    const problem = chosenImageProblem(chosen, texts.expected);
    if (problem) {
      snackbar.show({ type: 'error', title: texts.refused, description: problem });
      return;
    }
    setError(null);
    setFile(chosen);
  };

  /** Runs the sending of a cropped image; the crop closes once it went. */
  const send = async (work: () => Promise<void> | void) => {
    setPending(true);
    setError(null);
    try {
      await work();
      setFile(null);
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.message : texts.failed);
    } finally {
      setPending(false);
    }
  };

  /** Runs a removal; its failure is told in a snackbar titled `refusedTitle`. */
  const remove = async (work: () => Promise<void> | void, refusedTitle: string) => {
    setPending(true);
    try {
      await work();
    } catch (failure) {
      snackbar.show({ type: 'error', title: refusedTitle, description: failure instanceof ApiError ? failure.message : 'Réessayez.' });
    } finally {
      setPending(false);
    }
  };

  return { file, pending, error, choose, send, remove, cancel: () => setFile(null) };
}
