import { useCallback, useEffect, useRef, useState } from 'react';

/** Originals larger than this are not even opened: the crop sent is small, but the browser decodes the original. */
export const MAX_ORIGINAL_BYTES = 25 * 1024 * 1024;
/** What the image pickers offer (the API accepts these three). */
export const IMAGE_ACCEPT = 'image/jpeg,image/png,image/webp';

/** Why a chosen file is not cropped (in French: « choisissez une photo JPEG… », or what `expected` says), or null when it may be. */
export function chosenImageProblem(file: File, expected = 'une photo'): string | null {
  if (!file.type.startsWith('image/')) return `Ce fichier n’est pas une image : choisissez ${expected} JPEG, PNG ou WebP.`;
  if (file.size > MAX_ORIGINAL_BYTES) return 'Cette image dépasse 25 Mo : choisissez-en une plus légère.';
  return null;
}

/** A cropped image not sent yet (a form sends it after what it creates), with an object URL to preview it. */
export type PendingImage = { file: File; url: string };

/** The pending image of a form and its setter; the previous preview's URL is revoked on change and when the form leaves. */
export function usePendingImage(): [PendingImage | null, (file: File | null) => void] {
  const [image, setImage] = useState<PendingImage | null>(null);
  const current = useRef<PendingImage | null>(null);
  const choose = useCallback((file: File | null) => {
    if (current.current) URL.revokeObjectURL(current.current.url);
    current.current = file ? { file, url: URL.createObjectURL(file) } : null;
    setImage(current.current);
  }, []);
  useEffect(
    () => () => {
      if (current.current) URL.revokeObjectURL(current.current.url);
      current.current = null;
    },
    [],
  );
  return [image, choose];
}
