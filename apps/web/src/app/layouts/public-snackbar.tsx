import { SnackbarHost } from '../../components/snackbar/snackbar-host';
import { MuiProviders } from '../providers';

/** The snackbar of the public pages, with the theme but without MUI's baseline styles. */
export default function PublicSnackbar() {
  return (
    <MuiProviders baseline={false}>
      <SnackbarHost />
    </MuiProviders>
  );
}
