import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { zodResolver } from '@hookform/resolvers/zod';
import { FLEET_SIZE_LABELS, FLEET_SIZES, OnboardingCompanyFormSchema, type OnboardingCompanyForm } from '@flotte/contract';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { FormTextField } from '../../../components/form/form-text-field';
import { usePendingImage } from '../../../components/image-picker/chosen-image';
import { LogoField } from '../../../components/image-picker/logo-field';
import { snackbar } from '../../../components/snackbar/snackbar';
import { uploadOrganizationLogo } from '../../../lib/logos-api';
import { menuItems } from '../../../components/form/menu-items';
import { setServerFieldErrors } from '../../../components/form/server-errors';
import { createCompany } from '../../../features/onboarding/api/onboarding';
import { OnboardingFrame } from '../../../features/onboarding/components/onboarding-frame';
import { ApiError } from '../../../lib/api-error';
import { loadCurrentUser } from '../../../lib/session';

const FAILED = 'L’organisation n’a pas pu être créée. Vérifiez votre connexion puis réessayez.';
const FLEET_CHOICES = FLEET_SIZES.map((value) => ({ value, label: FLEET_SIZE_LABELS[value] }));

/**
 * The company form: the organization's name, SIREN or SIRET (checked with its key as typed),
 * address, logo (optional: cropped here, sent once the organization exists) and fleet size.
 */
export function CompanyForm({ onCreated }: { onCreated: () => void }) {
  const [failure, setFailure] = useState<string | null>(null);
  const [logo, setLogo] = usePendingImage();
  const { control, handleSubmit, setError, formState } = useForm<OnboardingCompanyForm>({
    resolver: zodResolver(OnboardingCompanyFormSchema),
    defaultValues: { title: '', companyId: '', address: '', fleetSize: '' as OnboardingCompanyForm['fleetSize'] },
  });
  const onSubmit = handleSubmit(async (body) => {
    setFailure(null);
    try {
      const state = await createCompany(body);
      if (logo && state.organization) {
        try {
          await uploadOrganizationLogo(state.organization.uuid, logo.file);
        } catch (error) {
          // The organization exists: the onboarding goes on; the logo can be sent again from /parameters.
          snackbar.show({
            type: 'error',
            title: 'Logo non enregistré',
            description: `${error instanceof ApiError && error.status !== 0 ? error.message : 'Le logo n’a pas pu être envoyé.'} Vous pourrez l’ajouter dans Paramètres.`,
          });
        }
      }
      onCreated();
    } catch (error) {
      if (!setServerFieldErrors(error, setError, ['title', 'companyId', 'address', 'fleetSize'])) setFailure(error instanceof ApiError && error.status !== 0 ? error.message : FAILED);
    }
  });
  return (
    <Box component="form" noValidate onSubmit={(event) => void onSubmit(event)} sx={{ display: 'grid', gap: 2.5 }}>
      {failure && <Alert severity="error">{failure}</Alert>}
      <FormTextField control={control} name="title" label="Nom de l’organisation" autoComplete="organization" autoFocus required fullWidth />
      <FormTextField
        control={control}
        name="companyId"
        label="SIREN ou SIRET"
        inputMode="numeric"
        required
        fullWidth
        helperText="9 chiffres (SIREN) ou 14 chiffres (SIRET), espaces permis."
      />
      <FormTextField control={control} name="address" label="Adresse" autoComplete="street-address" multiline minRows={2} required fullWidth />
      <LogoField imageUrl={logo?.url ?? null} onCropped={setLogo} onRemove={() => setLogo(null)} of="de l’organisation" disabled={formState.isSubmitting} />
      <FormTextField control={control} name="fleetSize" label="Taille de la flotte" select required fullWidth>
        {menuItems(FLEET_CHOICES)}
      </FormTextField>
      <Button type="submit" variant="contained" loading={formState.isSubmitting} sx={{ justifySelf: { xs: 'stretch', sm: 'end' } }}>
        Créer mon organisation
      </Button>
    </Box>
  );
}

/** /onboarding/company: the user's organization; they become its administrator. */
export default function OnboardingCompanyRoute() {
  const navigate = useNavigate();
  return (
    <OnboardingFrame page="company" title="Votre entreprise">
      {() => (
        <CompanyForm
          onCreated={() => {
            // The stored user learns its new organization before the next page.
            void loadCurrentUser().then(() => navigate('/onboarding/members'));
          }}
        />
      )}
    </OnboardingFrame>
  );
}
