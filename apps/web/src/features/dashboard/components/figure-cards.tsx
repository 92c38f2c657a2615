import Box from '@mui/material/Box';
import type { ClaimFrequency, DashboardConfig, HalfDifference, LossRatio } from '@flotte/contract';
import { memo } from 'react';
import { formatCount, formatDate, formatEuros, plural } from '../../../lib/format';
import { formatPercent, formatSignedVehicles, limitStatus } from '../../../lib/insurance-figures';
import { claimsUrl, vehiclesUrl } from '../utils/dashboard-links';
import type { DashboardWindow } from '../utils/dashboard-window';
import { FigureCard } from './figure-card';

export type FigureCardsProps = {
  window: DashboardWindow;
  config?: DashboardConfig;
  lossRatio?: LossRatio;
  /** The current period's frequency; null when no period contains today. */
  frequency?: ClaimFrequency | null;
  /** The current period's half-difference; null when no period contains today. */
  current?: HalfDifference | null;
};

const DASH = '—';
const signedEuros = (amount: number) => (amount > 0 ? `+${formatEuros(amount)}` : formatEuros(amount));
const period = (p: { startDate: string; endDate: string }) => `du ${formatDate(p.startDate)} au ${formatDate(p.endDate)}`;

/**
 * The four figures: S/P over the window, the current period's frequency and half-difference
 * (vehicles, euros). Memoized, as the dashboard's other parts: each of its ten answers re-renders
 * only the part it feeds.
 */
export const FigureCards = memo(function FigureCards({ window, config, lossRatio, frequency, current }: FigureCardsProps) {
  const declared = window.declared;
  const ratioReady = lossRatio !== undefined && config !== undefined;
  const frequencyReady = frequency !== undefined && config !== undefined && current !== undefined;

  const lossRatioCard = (
    <FigureCard
      title="S/P (sinistres / primes)"
      value={ratioReady ? (lossRatio.ratio === null ? DASH : formatPercent(lossRatio.ratio)) : undefined}
      status={ratioReady ? limitStatus(lossRatio.ratio, config.lossRatioPercentage) : undefined}
      to={claimsUrl({ startDate: window.startDate, endDate: window.endDate, declared })}
      linkLabel={`S/P ${lossRatio?.ratio == null ? 'non calculable' : formatPercent(lossRatio.ratio)} : voir les sinistres ${period(window)}`}
      formula={
        lossRatio
          ? `S/P = coût des sinistres ÷ primes acquises × 100 = ${formatEuros(lossRatio.costOfClaims)} ÷ ${formatEuros(lossRatio.earnedPremiums)} × 100${lossRatio.ratio === null ? ' : aucune prime acquise sur la période' : ` = ${formatPercent(lossRatio.ratio)}`}. Primes acquises : la prime de chaque période au prorata de ses jours ${period(window)}.`
          : 'S/P = coût des sinistres ÷ primes acquises × 100'
      }
      detail={config ? `Limite : ${config.lossRatioPercentage} % · ${period(window)}` : period(window)}
    />
  );

  const frequencyCard = (
    <FigureCard
      title="Fréquence des sinistres"
      value={frequencyReady ? (frequency?.frequency == null ? DASH : formatPercent(frequency.frequency)) : undefined}
      status={frequencyReady ? limitStatus(frequency?.frequency ?? null, config.claimFrequencyPercentage) : undefined}
      to={current ? claimsUrl({ startDate: current.startDate, endDate: current.endDate, declared }) : undefined}
      linkLabel={frequency && current ? `Fréquence ${formatPercent(frequency.frequency) || 'non calculable'} : voir les ${plural(frequency.claims, 'sinistre')} de la période en cours` : undefined}
      formula={
        frequency
          ? `Fréquence = sinistres de la période ÷ véhicules assurés au début × 100 = ${formatCount(frequency.claims)} ÷ ${formatCount(frequency.motors)} × 100${frequency.frequency === null ? '' : ` = ${formatPercent(frequency.frequency)}`}.`
          : 'Fréquence = sinistres de la période en cours ÷ véhicules assurés au début × 100'
      }
      detail={
        current
          ? `${config ? `Limite : ${config.claimFrequencyPercentage} % · ` : ''}période en cours ${period(current)}`
          : frequencyReady
            ? 'Aucune période ne contient la date du jour.'
            : undefined
      }
    />
  );

  const halfReady = current !== undefined;
  const vehiclesCard = (
    <FigureCard
      title="Demi-différence (véhicules)"
      value={halfReady ? (current ? formatSignedVehicles(current.halfDifference) : DASH) : undefined}
      caption={current ? (current.halfDifference > 0 ? 'Flotte en hausse' : current.halfDifference < 0 ? 'Flotte en baisse' : 'Flotte stable') : undefined}
      to={current ? vehiclesUrl(current.countedOn) : undefined}
      linkLabel={current ? `Demi-différence ${formatSignedVehicles(current.halfDifference)} véhicules : voir les ${plural(current.n1, 'véhicule')} de la flotte le ${formatDate(current.countedOn)}` : undefined}
      formula={
        current
          ? `Demi-différence = (N1 − N0) ÷ 2 = (${current.n1} − ${current.n0}) ÷ 2 = ${formatSignedVehicles(current.halfDifference)} véhicules. N0 : véhicules assurés au ${formatDate(current.startDate)} ; N1 : véhicules dans la flotte le ${formatDate(current.countedOn)}.`
          : 'Demi-différence = (N1 − N0) ÷ 2, N0 : véhicules assurés au début de la période, N1 : véhicules dans la flotte à la fin (aujourd’hui pour la période en cours).'
      }
      detail={current ? `N0 = ${plural(current.n0, 'véhicule')}, N1 = ${plural(current.n1, 'véhicule')}` : halfReady ? 'Aucune période en cours.' : undefined}
    />
  );

  const euros = current?.regularisation ?? null;
  const eurosCard = (
    <FigureCard
      title="Demi-différence (euros)"
      value={halfReady ? (euros === null ? DASH : signedEuros(euros)) : undefined}
      caption={current && euros !== null ? (euros > 0 ? 'À payer à l’assureur' : euros < 0 ? 'Remboursé par l’assureur' : 'Aucune régularisation') : undefined}
      to={current ? vehiclesUrl(current.startDate, current.countedOn) : undefined}
      linkLabel={current ? `Régularisation ${euros === null ? 'non calculable' : signedEuros(euros)} : voir les véhicules de la flotte ${period({ startDate: current.startDate, endDate: current.countedOn })}` : undefined}
      formula={
        current && current.unitPremium !== null && euros !== null
          ? `Régularisation = (N1 − N0) ÷ 2 × prime unitaire = ${formatSignedVehicles(current.halfDifference)} × ${formatEuros(current.unitPremium)} = ${signedEuros(euros)}. Prime unitaire = prime de la période ÷ N0 (${current.n0}).`
          : 'Régularisation = (N1 − N0) ÷ 2 × prime de la période ÷ N0 ; positive : la société doit, négative : l’assureur rembourse.'
      }
      detail={current ? `Prime unitaire : ${current.unitPremium === null ? DASH : formatEuros(current.unitPremium)}` : undefined}
    />
  );

  return (
    <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr', lg: 'repeat(4, 1fr)' } }}>
      {lossRatioCard}
      {frequencyCard}
      {vehiclesCard}
      {eurosCard}
    </Box>
  );
});

