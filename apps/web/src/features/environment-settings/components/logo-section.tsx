import type { Environment } from '@flotte/contract';
import { useQueryClient } from '@tanstack/react-query';
import { LogoField } from '../../../components/image-picker/logo-field';
import { SectionCard } from '../../../components/section-card';
import { snackbar } from '../../../components/snackbar/snackbar';
import { removeEnvironmentLogo, uploadEnvironmentLogo } from '../../../lib/logos-api';

/**
 * « Logo »: the broker's logo (decision 042), at the head of every e-mail the product sends to
 * its client organizations (their mail is branded with their environment's name and logo).
 */
export function LogoSection({ environment }: { environment: Environment }) {
  const queryClient = useQueryClient();
  /** The environment (this page, the help dialog) read again with its new logo. */
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['environments'] });
  return (
    <SectionCard id="logo" title="Logo" description="En tête des e-mails envoyés à vos organisations clientes, à côté du nom de votre cabinet.">
      <LogoField
        imageUrl={environment.logo?.url ?? null}
        of="du cabinet"
        hint="JPEG, PNG ou WebP ; la transparence est gardée. Il est réduit pour tenir dans 512 × 256 pixels."
        onCropped={async (image) => {
          await uploadEnvironmentLogo(environment.uuid, image);
          await refresh();
          snackbar.show({ type: 'success', title: 'Logo enregistré', description: 'Les prochains e-mails de vos organisations clientes le montreront.' });
        }}
        onRemove={async () => {
          await removeEnvironmentLogo(environment.uuid);
          await refresh();
          snackbar.show({ type: 'success', title: 'Logo retiré', description: 'Les e-mails ne montreront plus que le nom de votre cabinet.' });
        }}
      />
    </SectionCard>
  );
}
