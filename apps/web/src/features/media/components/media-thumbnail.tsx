import Box from '@mui/material/Box';
import Skeleton from '@mui/material/Skeleton';
import { useEffect, useState, type RefCallback } from 'react';
import { FileKindIcon, fileKind } from '../../../components/documents/file-kind';
import { fetchThumbnail } from '../api/media-api';

/**
 * Whether the element has come near the viewport (once seen, it stays true): a grid of 24 images
 * asks only for the thumbnails scrolled to. Without IntersectionObserver, at once.
 */
function useSeen<T extends Element>(): [RefCallback<T>, boolean] {
  const observable = typeof IntersectionObserver !== 'undefined';
  const [element, setElement] = useState<T | null>(null);
  const [seen, setSeen] = useState(false);
  useEffect(() => {
    if (!element || seen || !observable) return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) setSeen(true);
    }, { rootMargin: '200px' });
    observer.observe(element);
    return () => observer.disconnect();
  }, [element, seen, observable]);
  return [setElement, seen || !observable];
}

type ThumbnailState = { uuid: string; url: string | null; failed: boolean };

/** An object URL of the image's thumbnail once `enabled`; revoked when the card goes or shows another file. */
function useThumbnailUrl(uuid: string, enabled: boolean): { url: string | null; failed: boolean } {
  const [state, setState] = useState<ThumbnailState | null>(null);
  useEffect(() => {
    if (!enabled) return;
    const controller = new AbortController();
    let url: string | null = null;
    fetchThumbnail(uuid, controller.signal).then(
      (blob) => {
        url = URL.createObjectURL(blob);
        setState({ uuid, url, failed: false });
      },
      () => {
        // No thumbnail (an HEIC photo the server cannot read, a damaged image): the file's icon says enough.
        if (!controller.signal.aborted) setState({ uuid, url: null, failed: true });
      },
    );
    return () => {
      controller.abort();
      if (url) URL.revokeObjectURL(url);
    };
  }, [uuid, enabled]);
  if (state?.uuid !== uuid) return { url: null, failed: false };
  return { url: state.url, failed: state.failed };
}

const FRAME = { position: 'relative', aspectRatio: '4 / 3', width: '100%', display: 'grid', placeItems: 'center', bgcolor: 'action.hover', overflow: 'hidden' } as const;

/** An image's thumbnail, fetched when its card comes into view; any other file's kind as a large icon. */
export function MediaThumbnail({ file }: { file: { uuid: string; kind: 'file' | 'folder'; type: string | null } }) {
  const image = fileKind(file) === 'image';
  const [ref, seen] = useSeen<HTMLDivElement>();
  const { url, failed } = useThumbnailUrl(file.uuid, image && seen);
  return (
    <Box ref={ref} sx={FRAME}>
      {url ? (
        // The card's name says what it is: the picture itself is decorative.
        <Box component="img" src={url} alt="" sx={{ width: '100%', height: '100%', objectFit: 'cover', display: 'block' }} />
      ) : image && !failed ? (
        <Skeleton variant="rectangular" sx={{ position: 'absolute', inset: 0, width: '100%', height: '100%' }} aria-hidden />
      ) : (
        <FileKindIcon doc={file} sx={{ fontSize: 56 }} />
      )}
    </Box>
  );
}
