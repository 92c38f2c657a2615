import AddPhotoAlternateOutlined from '@mui/icons-material/AddPhotoAlternateOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useId, useRef } from 'react';
import { lazyComponent } from '../lazy-component';
import { IMAGE_ACCEPT } from './chosen-image';
import { LOGO_FRAME } from './crop-geometry';
import { useImagePick } from './use-image-pick';

const ImageCropDialog = lazyComponent(() => import('./image-crop-dialog').then((m) => m.ImageCropDialog));

export type LogoFieldProps = {
  /** What to show: the logo in force, or the object URL of a crop not sent yet; null: none. */
  imageUrl: string | null;
  /** A cropped logo: sent at once (a promise: its refusal is shown in the crop dialog) or kept by the form. */
  onCropped: (image: File) => Promise<void> | void;
  /** Removes the logo (or forgets the crop); absent: no « Retirer » button. */
  onRemove?: () => Promise<void> | void;
  /** Whose logo, for the file input's name: « de l’organisation ». */
  of: string;
  disabled?: boolean;
  /** Under the buttons; defaults to what the API keeps. */
  hint?: string;
};

/**
 * A logo (decision 042): its preview in a 2 : 1 box, « Choisir un logo » opening the shared crop
 * (the whole image fits at first; zoom in to trim), « Retirer le logo ». Used by the onboarding's
 * company form, the broker's « Créer une organisation » and /parameters.
 */
export function LogoField({ imageUrl, onCropped, onRemove, of, disabled = false, hint }: LogoFieldProps) {
  const input = useRef<HTMLInputElement>(null);
  const labelId = useId();
  const pick = useImagePick({ expected: 'une image', refused: 'Logo non modifié', failed: 'Le logo n’a pas pu être envoyé. Réessayez.' });
  const { file, pending, error, choose } = pick;
  const remove = async () => {
    if (onRemove) await pick.remove(onRemove, 'Logo non retiré');
  };

  return (
    <Box sx={{ display: 'grid', gap: 1 }}>
      <Typography id={labelId} variant="subtitle2" component="p">
        Logo
      </Typography>
      <Box sx={{ display: 'flex', gap: 2, alignItems: 'center', flexWrap: 'wrap' }}>
        <Box
          sx={{
            width: 128,
            height: 64,
            flex: '0 0 auto',
            display: 'grid',
            placeItems: 'center',
            borderRadius: 1,
            border: 1,
            borderColor: 'divider',
            bgcolor: 'background.paper',
            overflow: 'hidden',
          }}
        >
          {imageUrl ? (
            <Box component="img" src={imageUrl} alt="Aperçu du logo" sx={{ maxWidth: '100%', maxHeight: '100%', objectFit: 'contain' }} />
          ) : (
            <AddPhotoAlternateOutlined aria-hidden color="disabled" fontSize="large" />
          )}
        </Box>
        <Box sx={{ display: 'grid', gap: 0.5, minWidth: 0 }}>
          <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
            <Button
              variant="outlined"
              onClick={() => input.current?.click()}
              onPointerEnter={ImageCropDialog.preload}
              onFocus={ImageCropDialog.preload}
              disabled={disabled || pending}
              aria-describedby={labelId}
            >
              {imageUrl ? 'Changer le logo' : 'Choisir un logo'}
            </Button>
            {imageUrl && onRemove && (
              <Button color="error" onClick={() => void remove()} disabled={disabled || pending}>
                Retirer le logo
              </Button>
            )}
          </Box>
          <Typography variant="caption" color="textSecondary">
            {hint ?? 'Facultatif. JPEG, PNG ou WebP ; la transparence est gardée.'}
          </Typography>
        </Box>
        <input ref={input} type="file" accept={IMAGE_ACCEPT} hidden onChange={choose} aria-label={`Fichier du logo ${of}`} />
      </Box>
      {file && (
        <ImageCropDialog
          file={file}
          frame={LOGO_FRAME}
          title="Recadrer le logo"
          help="Le logo entier est gardé ; zoomez et faites-le glisser pour n’en garder qu’une partie."
          saveLabel="Garder ce logo"
          pending={pending}
          error={error}
          onCancel={pick.cancel}
          onCropped={(image) => void pick.send(() => onCropped(image))}
        />
      )}
    </Box>
  );
}
