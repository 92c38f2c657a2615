import { AVATAR_FRAME, type Crop, placeInFrame } from '../../../components/image-picker/crop-geometry';
import { ImageCropDialog } from '../../../components/image-picker/image-crop-dialog';

/** The image's drawn size and top-left corner in the avatar's 280 px square (the shared crop's geometry). */
export function placement(width: number, height: number, crop: Crop) {
  return placeInFrame(width, height, crop, AVATAR_FRAME);
}

export type AvatarCropDialogProps = {
  file: File;
  pending: boolean;
  error: string | null;
  onCancel: () => void;
  onCropped: (image: File) => void;
};

/** The square crop of a new profile photo: the shared image crop (decision 042) with the avatar's round square. */
export function AvatarCropDialog(props: AvatarCropDialogProps) {
  return (
    <ImageCropDialog
      {...props}
      frame={AVATAR_FRAME}
      title="Recadrer la photo"
      help="Faites glisser la photo pour la placer dans le cercle, puis ajustez le zoom."
      saveLabel="Enregistrer la photo"
    />
  );
}
