import ZoomIn from '@mui/icons-material/ZoomIn';
import ZoomOut from '@mui/icons-material/ZoomOut';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Slider from '@mui/material/Slider';
import Typography from '@mui/material/Typography';
import { useCallback, useEffect, useId, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { cropFrame, placeInFrame, type Crop, type CropFrame } from './crop-geometry';

/** The canvas is drawn at twice its CSS size, for sharp screens. */
const RATIO = 2;
const MAX_ZOOM = 4;
const STEP = 12;

export type ImageCropDialogProps = {
  file: File;
  /** The frame and how the image fills it: the avatar's round square, a logo's 2 : 1 box. */
  frame: CropFrame;
  title: string;
  help: string;
  saveLabel: string;
  pending: boolean;
  error: string | null;
  onCancel: () => void;
  onCropped: (image: File) => void;
};

/**
 * The crop of a new image on a canvas (decision 042): the zoom by slider (or + and −), the image
 * moved by dragging (or the arrow keys). What the frame shows of the image is sent, as WebP (PNG
 * where the browser does not write WebP), its transparency kept; the API resizes it. Loaded only
 * when an image is chosen (a chunk of its own).
 */
export function ImageCropDialog({ file, frame, title, help, saveLabel, pending, error, onCancel, onCropped }: ImageCropDialogProps) {
  const titleId = useId();
  const helpId = useId();
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const [image, setImage] = useState<HTMLImageElement | null>(null);
  const [unreadable, setUnreadable] = useState(false);
  const [crop, setCrop] = useState<Crop>({ zoom: 1, x: 0, y: 0 });
  const drag = useRef<{ id: number; x: number; y: number } | null>(null);
  const { viewWidth, viewHeight } = frame;

  useEffect(() => {
    const url = URL.createObjectURL(file);
    const img = new Image();
    img.onload = () => setImage(img);
    img.onerror = () => setUnreadable(true);
    img.src = url;
    return () => URL.revokeObjectURL(url);
  }, [file]);

  const place = useCallback((next: Crop) => (image ? placeInFrame(image.naturalWidth, image.naturalHeight, next, frame) : null), [image, frame]);

  useEffect(() => {
    const canvas = canvasRef.current;
    const context = canvas?.getContext('2d');
    const at = place(crop);
    if (!canvas || !context || !image || !at) return;
    context.setTransform(RATIO, 0, 0, RATIO, 0, 0);
    context.clearRect(0, 0, viewWidth, viewHeight);
    context.drawImage(image, at.left, at.top, at.w, at.h);
    if (frame.round) {
      // The round avatar the menu will show; the corners, outside it, dimmed.
      context.fillStyle = 'rgba(0, 0, 0, 0.45)';
      context.beginPath();
      context.rect(0, 0, viewWidth, viewHeight);
      context.arc(viewWidth / 2, viewHeight / 2, Math.min(viewWidth, viewHeight) / 2, 0, Math.PI * 2, true);
      context.fill();
    }
  }, [crop, image, place, frame.round, viewWidth, viewHeight]);

  /** Keeps the offset inside the bounds the zoom allows. */
  const update = (next: Crop) => {
    const at = place(next);
    setCrop(at ? { zoom: next.zoom, x: at.x, y: at.y } : next);
  };

  const onPointerDown = (event: PointerEvent<HTMLCanvasElement>) => {
    event.currentTarget.setPointerCapture(event.pointerId);
    drag.current = { id: event.pointerId, x: event.clientX, y: event.clientY };
  };
  const onPointerMove = (event: PointerEvent<HTMLCanvasElement>) => {
    const from = drag.current;
    if (!from || from.id !== event.pointerId) return;
    // The canvas may be drawn smaller than its frame on a narrow screen: move by the on-screen ratio.
    const ratio = viewWidth / event.currentTarget.getBoundingClientRect().width;
    update({ ...crop, x: crop.x + (event.clientX - from.x) * ratio, y: crop.y + (event.clientY - from.y) * ratio });
    drag.current = { id: event.pointerId, x: event.clientX, y: event.clientY };
  };
  const onPointerUp = () => {
    drag.current = null;
  };
  const onKeyDown = (event: KeyboardEvent<HTMLCanvasElement>) => {
    const moves: Record<string, [number, number]> = { ArrowLeft: [STEP, 0], ArrowRight: [-STEP, 0], ArrowUp: [0, STEP], ArrowDown: [0, -STEP] };
    const move = moves[event.key];
    if (event.key === '+' || event.key === '-') {
      event.preventDefault();
      update({ ...crop, zoom: Math.max(1, Math.min(MAX_ZOOM, crop.zoom + (event.key === '+' ? 0.2 : -0.2))) });
    } else if (move) {
      event.preventDefault();
      update({ ...crop, x: crop.x + move[0], y: crop.y + move[1] });
    }
  };

  const save = () => {
    const at = place(crop);
    if (!image || !at) return;
    const region = cropFrame(at, frame);
    const out = document.createElement('canvas');
    out.width = region.outWidth;
    out.height = region.outHeight;
    const context = out.getContext('2d');
    if (!context) return;
    context.imageSmoothingQuality = 'high';
    context.drawImage(image, region.sx, region.sy, region.sw, region.sh, 0, 0, region.outWidth, region.outHeight);
    // WebP where the browser writes it, else PNG (Safari): the API accepts both; both keep transparency.
    out.toBlob(
      (blob) => {
        if (blob) onCropped(new File([blob], blob.type === 'image/webp' ? 'image.webp' : 'image.png', { type: blob.type }));
      },
      'image/webp',
      0.92,
    );
  };

  return (
    <Dialog open onClose={pending ? undefined : onCancel} aria-labelledby={titleId} maxWidth="xs" fullWidth>
      <DialogTitle id={titleId}>{title}</DialogTitle>
      <DialogContent sx={{ display: 'grid', gap: 2, justifyItems: 'center' }}>
        {unreadable ? (
          <Alert severity="error" sx={{ width: '100%' }}>
            Cette image ne peut pas être lue par le navigateur : choisissez une image JPEG, PNG ou WebP.
          </Alert>
        ) : (
          <>
            <Typography id={helpId} variant="body2" color="textSecondary">
              {help}
            </Typography>
            <Box
              component="canvas"
              ref={canvasRef}
              width={viewWidth * RATIO}
              height={viewHeight * RATIO}
              tabIndex={0}
              role="img"
              aria-label="Aperçu du recadrage (flèches : déplacer, + et − : zoomer)"
              aria-describedby={helpId}
              onPointerDown={onPointerDown}
              onPointerMove={onPointerMove}
              onPointerUp={onPointerUp}
              onPointerCancel={onPointerUp}
              onKeyDown={onKeyDown}
              sx={{
                width: '100%',
                maxWidth: viewWidth,
                aspectRatio: `${viewWidth} / ${viewHeight}`,
                borderRadius: 2,
                // A checkerboard behind a logo: its transparent parts show as such.
                ...(frame.round
                  ? { bgcolor: 'grey.200' }
                  : { backgroundColor: '#fff', backgroundImage: 'repeating-conic-gradient(#e4e7eb 0% 25%, transparent 0% 50%)', backgroundSize: '16px 16px' }),
                cursor: 'grab',
                touchAction: 'none',
                '&:active': { cursor: 'grabbing' },
                '&:focus-visible': { outline: '3px solid', outlineColor: 'primary.main', outlineOffset: 2 },
              }}
            />
            <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, width: '100%', maxWidth: viewWidth }}>
              <ZoomOut aria-hidden color="action" />
              <Slider
                aria-label="Zoom"
                value={crop.zoom}
                min={1}
                max={MAX_ZOOM}
                step={0.05}
                disabled={!image}
                getAriaValueText={(value) => `${Math.round(value * 100)} %`}
                onChange={(_, value) => update({ ...crop, zoom: value as number })}
              />
              <ZoomIn aria-hidden color="action" />
            </Box>
          </>
        )}
        {error && (
          <Alert severity="error" sx={{ width: '100%' }}>
            {error}
          </Alert>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel} disabled={pending}>
          Annuler
        </Button>
        <Button variant="contained" onClick={save} loading={pending} disabled={!image || unreadable}>
          {saveLabel}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
