import { CHOICES_LIMIT, ListVehiculeChoicesQuerySchema, VehiculeChoicePageSchema, type VehiculeChoice } from '@flotte/contract';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useForm, useWatch } from 'react-hook-form';
import { describe, expect, it } from 'vitest';
import { formatPlate } from '../../lib/format';
import { queryKeys } from '../../lib/query-keys';
import { apiErrorBody, mockFetch, type MockRoute } from '../../test/mock-fetch';
import { renderWithProviders } from '../../test/render';
import { FormRecordPicker } from './form-record-picker';
import { pickerTexts } from './picker-texts';
import { recordChoices } from './record-choices';

const vehicules = recordChoices('vehicules', '/api/vehicule/choices', {
  page: VehiculeChoicePageSchema,
  query: ListVehiculeChoicesQuerySchema,
  sortBy: 'immatriculation',
});
const label = (v: VehiculeChoice) => `${formatPlate(v.immatriculation)} · ${[v.brand, v.model].filter(Boolean).join(' ')}`;

let seq = 0;
function vehicule(immatriculation: string, brand: string | null = 'Renault', model: string | null = 'Kangoo'): VehiculeChoice {
  seq += 1;
  return { uuid: `e0000000-0000-4000-8000-${String(seq).padStart(12, '0')}`, immatriculation, brand, model };
}

/** A page of choices as GET /api/vehicule/choices answers it (the contract parses it). */
function choicePage(data: VehiculeChoice[], total = data.length) {
  return VehiculeChoicePageSchema.parse({ data, page: 1, nbOfPages: Math.max(1, Math.ceil(total / CHOICES_LIMIT)), total });
}

const SMALL = [vehicule('AB123CD', 'Renault', 'Master'), vehicule('EF456GH', 'Citroën', 'Berlingo'), vehicule('GH789JK', 'Peugeot', 'Partner')];
/** A fleet of 3 000: the first page holds its first 200 plates. */
const FIRST_PAGE = Array.from({ length: CHOICES_LIMIT }, (_, i) => vehicule(`AA${String(i).padStart(3, '0')}AA`, 'Iveco', 'Daily'));
const FAR = vehicule('ZZ987YX', 'Renault', 'Trafic');

function Form({ current = null }: { current?: VehiculeChoice | null }) {
  const { control } = useForm<{ vehicule: string }>({ defaultValues: { vehicule: current?.uuid ?? '' } });
  const value = useWatch({ control, name: 'vehicule' });
  return (
    <>
      <FormRecordPicker
        control={control}
        name="vehicule"
        label="Véhicule"
        choices={vehicules}
        current={current}
        getOptionLabel={label}
        getSearchText={(v) => v.immatriculation}
        texts={pickerTexts({ one: 'véhicule' })}
      />
      <output aria-label="Valeur">{value}</output>
    </>
  );
}

function choicesRoute(answer: (search: string | null) => ReturnType<NonNullable<MockRoute['respond']>>): MockRoute {
  return { path: '/api/vehicule/choices', respond: (request) => answer(new URL(request.url).searchParams.get('search')) };
}

const queries = (calls: Request[]) => calls.map((call) => Object.fromEntries(new URL(call.url).searchParams));
const field = () => screen.getByRole('combobox', { name: 'Véhicule' });
const options = () => within(screen.getByRole('listbox')).queryAllByRole('option').map((option) => option.textContent);

describe('FormRecordPicker, a small fleet', () => {
  it('reads every choice in one request and searches them in the browser: any spelling of a plate, brand, accents', async () => {
    const { calls } = mockFetch([choicesRoute(() => ({ body: choicePage(SMALL) }))]);
    renderWithProviders(<Form />);
    const ui = userEvent.setup();
    await ui.click(field());
    await waitFor(() => expect(options()).toHaveLength(3));

    await ui.type(field(), 'ab 123');
    expect(options()).toEqual(['AB-123-CD · Renault Master']);
    await ui.clear(field());
    await ui.type(field(), 'citroen');
    expect(options()).toEqual(['EF-456-GH · Citroën Berlingo']);
    await ui.clear(field());
    await ui.type(field(), 'zz');
    expect(await screen.findByText('Aucun véhicule trouvé')).toBeInTheDocument();
    await ui.clear(field());
    await ui.type(field(), 'gh789');
    await ui.click(screen.getByRole('option', { name: 'GH-789-JK · Peugeot Partner' }));
    expect(screen.getByRole('status', { name: 'Valeur' })).toHaveTextContent(SMALL[2]!.uuid);
    expect(field()).toHaveValue('GH-789-JK · Peugeot Partner');

    // Past the debounce: still the one request of the first page, whatever was typed.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(queries(calls)).toEqual([{ page: '1', limit: String(CHOICES_LIMIT), sortBy: 'immatriculation' }]);
  });

  it('says when the fleet has no vehicle yet', async () => {
    mockFetch([choicesRoute(() => ({ body: choicePage([]) }))]);
    renderWithProviders(<Form />);
    await userEvent.setup().click(field());
    expect(await screen.findByText('Aucun véhicule pour le moment')).toBeInTheDocument();
  });
});

describe('FormRecordPicker, a fleet larger than one page', () => {
  const routes = () =>
    mockFetch([
      choicesRoute((search) => {
        if (search === null) return { body: choicePage(FIRST_PAGE, 3000) };
        const found = [...FIRST_PAGE, FAR].filter((v) => v.immatriculation.includes(search.toUpperCase().replace(/[\s-]/g, '')));
        return { body: choicePage(found) };
      }),
    ]);

  it('asks to type, then searches the server as the person types (debounced) and picks a vehicle beyond the first page', async () => {
    const { calls } = routes();
    renderWithProviders(<Form />);
    const ui = userEvent.setup();
    await ui.click(field());
    expect(await screen.findByText(/^Tapez pour rechercher parmi les 3\s000 véhicules…$/)).toBeInTheDocument();

    await ui.type(field(), 'zz-987');
    await ui.click(await screen.findByRole('option', { name: 'ZZ-987-YX · Renault Trafic' }));
    expect(screen.getByRole('status', { name: 'Valeur' })).toHaveTextContent(FAR.uuid);
    // The chosen vehicle stays in the field once the search is over.
    expect(field()).toHaveValue('ZZ-987-YX · Renault Trafic');
    // One search for the whole term typed, not one per keystroke.
    expect(queries(calls)).toEqual([
      { page: '1', limit: String(CHOICES_LIMIT), sortBy: 'immatriculation' },
      { page: '1', limit: String(CHOICES_LIMIT), sortBy: 'immatriculation', search: 'zz-987' },
    ]);

    await ui.clear(field());
    await ui.type(field(), 'qq');
    expect(await screen.findByText('Aucun véhicule trouvé')).toBeInTheDocument();
  });

  it('says when a search found more than it offers, and asks to narrow it', async () => {
    mockFetch([
      choicesRoute((search) => (search === null ? { body: choicePage(FIRST_PAGE, 3000) } : { body: choicePage(FIRST_PAGE, 1850) })),
    ]);
    renderWithProviders(<Form />);
    const ui = userEvent.setup();
    await ui.click(field());
    await ui.type(field(), 'iveco');
    expect(await screen.findByText(/^Seuls les 200 premiers des 1\s850 véhicules trouvés sont proposés : précisez la recherche\.$/)).toBeInTheDocument();
    expect(options()).toHaveLength(CHOICES_LIMIT);
  });

  it('shows the record being edited even when it lies beyond the first page', async () => {
    const { calls } = routes();
    renderWithProviders(<Form current={FAR} />);
    expect(field()).toHaveValue('ZZ-987-YX · Renault Trafic');
    await waitFor(() => expect(calls).toHaveLength(1));
    await userEvent.setup().click(field());
    expect(options()).toEqual(['ZZ-987-YX · Renault Trafic']);
    // The others are a search away, and the list says so under the record held.
    expect(screen.getByText(/^Tapez pour rechercher parmi les 3\s000 véhicules…$/)).toBeInTheDocument();
    expect(field()).toHaveValue('ZZ-987-YX · Renault Trafic');
  });
});

describe('FormRecordPicker and the server', () => {
  it('sends the ETag of the choices it holds and keeps them on a 304', async () => {
    const { calls } = mockFetch([
      {
        path: '/api/vehicule/choices',
        respond: (request) => (request.headers.get('if-none-match') === '"c1"' ? { status: 304 } : { body: choicePage(SMALL), headers: { etag: '"c1"' } }),
      },
    ]);
    const { queryClient } = renderWithProviders(<Form />);
    const ui = userEvent.setup();
    await ui.click(field());
    await waitFor(() => expect(options()).toHaveLength(3));
    // A vehicle written elsewhere makes the choices stale: asked again with the ETag held.
    await act(() => queryClient.invalidateQueries({ queryKey: queryKeys.vehicules.all }));
    await waitFor(() => expect(calls).toHaveLength(2));
    expect(calls[1]!.headers.get('if-none-match')).toBe('"c1"');
    expect(options()).toHaveLength(3);
  });

  it('shows the French message of an overloaded server in the list, after trying again', async () => {
    const message = 'Le service est très sollicité en ce moment : réessayez dans quelques secondes.';
    const { calls } = mockFetch([
      { path: '/api/vehicule/choices', status: 503, body: apiErrorBody(503, message), headers: { 'retry-after': '0' } },
    ]);
    renderWithProviders(<Form />);
    await userEvent.setup().click(field());
    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(calls).toHaveLength(3);
  });
});
