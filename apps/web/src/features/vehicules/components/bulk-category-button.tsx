import CategoryOutlined from '@mui/icons-material/CategoryOutlined';
import ExpandMore from '@mui/icons-material/ExpandMore';
import Button from '@mui/material/Button';
import { COUNT_CAP, VEHICULE_TYPES, vehiculeTypeLabel, type VehiculeTypeCode } from '@flotte/contract';
import { useId, useState } from 'react';
import { LazyConfirm, LazyConfirmDialog } from '../../../components/register/lazy-confirm-dialog';
import { showActionError } from '../../../components/register/register-actions';
import { snackbar } from '../../../components/snackbar/snackbar';
import { formatCount, plural } from '../../../lib/format';
import { useUpdateVehiculesCategory, type VehiculesFilters } from '../api/update-vehicules-category';
import { vehiculeTypeShortLabel } from '../utils/vehicule-texts';
import { Menu, MenuItem, preloadMenu } from '../../../components/menu/lazy-menu';
import { intentProps } from '../../../components/register/intent';

export type BulkCategoryButtonProps = {
  /** The list's filters (search, archive view, categories, period): the vehicles changed are the ones they match. */
  filters: VehiculesFilters;
  /** How many vehicles the filters match (the list's `total`). */
  total: number;
  /** The total is a floor ("more than 1 000"). */
  totalIsCapped?: boolean;
  /** A search or a filter narrows the list; without one every active vehicle changes. */
  isFiltered: boolean;
  disabled?: boolean;
};

type Pending = { type: VehiculeTypeCode; total: number; totalIsCapped: boolean; isFiltered: boolean };

/** 'Passer les 12 véhicules affichés par ce filtre en catégorie VUL ?' */
export function bulkCategoryQuestion({ type, total, totalIsCapped, isFiltered }: Pending): string {
  const category = vehiculeTypeShortLabel(type);
  const where = isFiltered ? 'affiché par ce filtre' : 'actif de la flotte';
  const wherePlural = isFiltered ? 'affichés par ce filtre' : 'actifs de la flotte';
  if (totalIsCapped) return `Passer plus de ${formatCount(COUNT_CAP)} véhicules ${wherePlural} en catégorie ${category} ?`;
  if (total === 1) return `Passer le véhicule ${where} en catégorie ${category} ?`;
  return `Passer les ${formatCount(total)} véhicules ${wherePlural} en catégorie ${category} ?`;
}

/**
 * 'Changer la catégorie': one category for every vehicle of the current list (all its pages),
 * after a confirmation that says how many (PATCH /api/vehicule/category/{type} with the filters).
 */
export function BulkCategoryButton({ filters, total, totalIsCapped = false, isFiltered, disabled }: BulkCategoryButtonProps) {
  const menuId = useId();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  // Kept after closing, so the title does not change while the dialog fades out.
  const [pending, setPending] = useState<{ open: boolean; change?: Pending; filters?: VehiculesFilters }>({ open: false });
  const update = useUpdateVehiculesCategory();
  const close = () => setPending((current) => ({ ...current, open: false }));

  const confirm = async () => {
    const { change, filters: chosenFilters } = pending;
    if (!change || !chosenFilters) return;
    let updated: number;
    try {
      ({ updated } = await update.mutateAsync({ type: change.type, filters: chosenFilters }));
    } catch (error) {
      showActionError(error);
      throw error;
    }
    close();
    snackbar.show({
      type: 'success',
      title: plural(updated, 'véhicule mis à jour', 'véhicules mis à jour'),
      description: `Catégorie : ${vehiculeTypeLabel(change.type)}`,
    });
  };

  return (
    <>
      <Button
        variant="outlined"
        startIcon={<CategoryOutlined />}
        endIcon={<ExpandMore />}
        disabled={disabled || total === 0}
        aria-haspopup="menu"
        aria-controls={anchor ? menuId : undefined}
        aria-expanded={anchor ? true : undefined}
        onClick={(event) => {
          // The confirmation comes after a choice in the menu: fetch it now.
          LazyConfirm.preload();
          setAnchor(event.currentTarget);
        }}
        {...intentProps(preloadMenu)}
        sx={{ flexShrink: 0, bgcolor: 'background.paper' }}
      >
        Changer la catégorie
      </Button>
      <Menu
        id={menuId}
        anchorEl={anchor}
        open={anchor !== null}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        slotProps={{ list: { 'aria-label': 'Nouvelle catégorie' } }}
      >
        {VEHICULE_TYPES.map((type) => (
          <MenuItem
            key={type.code}
            dense
            onClick={() => {
              setAnchor(null);
              setPending({ open: true, change: { type: type.code, total, totalIsCapped, isFiltered }, filters });
            }}
          >
            {type.label}
          </MenuItem>
        ))}
      </Menu>
      <LazyConfirmDialog
        open={pending.open}
        title={pending.change ? bulkCategoryQuestion(pending.change) : ''}
        description={
          pending.change?.total === 1 && !pending.change.totalIsCapped
            ? 'Sa catégorie actuelle est remplacée. Cette modification ne peut pas être annulée.'
            : 'Leur catégorie actuelle est remplacée, sur toutes les pages de la liste. Cette modification ne peut pas être annulée.'
        }
        confirmLabel="Changer la catégorie"
        destructive={false}
        onConfirm={confirm}
        onClose={close}
      />
    </>
  );
}
