import { render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { DocumentTitle } from '../components/document-title';
import { DRIVER_TEXTS } from '../features/drivers/utils/driver-texts';
import { SINISTER_TEXTS } from '../features/sinisters/utils/sinister-texts';
import { VEHICULE_TEXTS } from '../features/vehicules/utils/vehicule-texts';
import { needsSession } from '../app/router';
import { PAGE_FRAME_ID, PAGE_FRAME_TITLES, pageFrameHtml, pageFrames, removePageFrame } from './page-frame';

afterEach(() => document.body.replaceChildren());

describe('page frames', () => {
  it('titles each framed page as its h1 does, and frames only pages behind the login', () => {
    expect(PAGE_FRAME_TITLES['/vehicules']).toBe(VEHICULE_TEXTS.title);
    expect(PAGE_FRAME_TITLES['/drivers']).toBe(DRIVER_TEXTS.title);
    expect(PAGE_FRAME_TITLES['/sinisters']).toBe(SINISTER_TEXTS.title);
    for (const pathname of Object.keys(PAGE_FRAME_TITLES)) expect(needsSession(pathname)).toBe(true);
  });

  it('is a picture of the page: hidden from assistive technologies, titled, escaped', () => {
    document.body.innerHTML = pageFrameHtml('Véhicules & <b>remorques</b>');
    const frame = document.getElementById(PAGE_FRAME_ID)!;
    expect(frame.getAttribute('aria-hidden')).toBe('true');
    expect(frame.querySelector('.fa-frame__title')!.textContent).toBe('Véhicules & <b>remorques</b>');
    expect(frame.querySelector('.fa-frame__bar-title')!.textContent).toBe('Tableau de bord');
    expect(frame.querySelector('b')).toBeNull();
    expect(Object.keys(pageFrames()).sort()).toEqual(Object.keys(PAGE_FRAME_TITLES).sort());
  });

  it('goes away in the commit that shows a page’s title, and removing it twice is harmless', () => {
    document.body.innerHTML = `${pageFrameHtml('Conducteurs')}<div id="app"></div>`;
    expect(document.getElementById(PAGE_FRAME_ID)).not.toBeNull();
    render(<DocumentTitle title="Conducteurs" />, { container: document.getElementById('app')! });
    expect(document.getElementById(PAGE_FRAME_ID)).toBeNull();
    expect(() => removePageFrame()).not.toThrow();
  });
});
