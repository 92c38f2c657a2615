import PhotoCameraOutlined from '@mui/icons-material/PhotoCameraOutlined';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import type { User } from '@flotte/contract';
import { useRef } from 'react';
import { IMAGE_ACCEPT } from '../../../components/image-picker/chosen-image';
import { useImagePick } from '../../../components/image-picker/use-image-pick';
import { lazyComponent } from '../../../components/lazy-component';
import { SectionCard } from '../../../components/section-card';
import { snackbar } from '../../../components/snackbar/snackbar';
import { removeAvatar, uploadAvatar } from '../api/account';

const AvatarCropDialog = lazyComponent(() => import('./avatar-crop-dialog').then((m) => m.AvatarCropDialog));

const initials = (user: User) => `${user.firstName.charAt(0)}${user.lastName.charAt(0)}`.toUpperCase();

/** « Photo de profil » of /account: choose an image, crop it square, send it; or remove it. */
export function AvatarSection({ user }: { user: User }) {
  return (
    <SectionCard id="photo" title="Photo de profil" description="Elle apparaît dans le menu et auprès des membres de vos organisations.">
      <AvatarPicker user={user} />
    </SectionCard>
  );
}

/**
 * The photo's controls (choose, crop, send, remove), also used by /superadmin/settings beside its
 * card preview; `showAvatar={false}` when the page already shows the photo.
 */
export function AvatarPicker({ user, showAvatar = true }: { user: User; showAvatar?: boolean }) {
  const input = useRef<HTMLInputElement>(null);
  const pick = useImagePick({ refused: 'Photo non modifiée', failed: 'La photo n’a pas pu être envoyée. Réessayez.' });
  const { file, pending, error, choose } = pick;
  const send = (image: File) =>
    pick.send(async () => {
      await uploadAvatar(image);
      snackbar.show({ type: 'success', title: 'Photo enregistrée', description: 'Votre nouvelle photo de profil est en place.' });
    });
  const remove = () =>
    pick.remove(async () => {
      await removeAvatar();
      snackbar.show({ type: 'success', title: 'Photo retirée', description: 'Vos initiales la remplacent.' });
    }, 'Photo non retirée');

  return (
    <>
      <Box sx={{ display: 'flex', gap: 2.5, alignItems: 'center', flexWrap: 'wrap' }}>
        {showAvatar && (
          <Avatar src={user.avatar?.url ?? undefined} alt="" sx={{ width: 88, height: 88, fontSize: 32, bgcolor: 'secondary.main' }}>
            {initials(user)}
          </Avatar>
        )}
        <Box sx={{ display: 'grid', gap: 1 }}>
          <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
            <Button
              variant="outlined"
              startIcon={<PhotoCameraOutlined />}
              onClick={() => input.current?.click()}
              onPointerEnter={AvatarCropDialog.preload}
              onFocus={AvatarCropDialog.preload}
              disabled={pending}
            >
              {user.avatar ? 'Changer la photo' : 'Choisir une photo'}
            </Button>
            {user.avatar && (
              <Button color="error" onClick={() => void remove()} disabled={pending}>
                Retirer la photo
              </Button>
            )}
          </Box>
          <Typography variant="caption" color="textSecondary">
            JPEG, PNG ou WebP. Vous la recadrez en carré avant l’envoi.
          </Typography>
        </Box>
        <input ref={input} type="file" accept={IMAGE_ACCEPT} hidden onChange={choose} aria-label="Fichier de la photo de profil" />
      </Box>
      {file && <AvatarCropDialog file={file} pending={pending} error={error} onCancel={pick.cancel} onCropped={(image) => void send(image)} />}
    </>
  );
}
