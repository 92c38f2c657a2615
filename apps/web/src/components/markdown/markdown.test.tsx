import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import CGU_TEXT from '../../content/cgu.md?raw';
import { CGU_VERSION } from '@flotte/contract';
import { Markdown, safeHref } from './markdown';

describe('<Markdown />', () => {
  it('draws headings under the page’s h1, paragraphs, lists, bold and links', () => {
    render(<Markdown source={'# Titre\n\nUn **mot** en gras et [un lien](https://exemple.fr).\n\n- premier\n- second\n\n1. un\n2. deux'} />);
    expect(screen.getByRole('heading', { level: 2, name: 'Titre' })).toBeInTheDocument();
    expect(screen.getByText('mot').tagName).toBe('STRONG');
    const link = screen.getByRole('link', { name: 'un lien' });
    expect(link).toHaveAttribute('href', 'https://exemple.fr');
    expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    expect(screen.getAllByRole('list')).toHaveLength(2);
    expect(screen.getAllByRole('listitem').map((li) => li.textContent)).toEqual(['premier', 'second', 'un', 'deux']);
  });

  it('never runs what the text holds: raw HTML shows as text, a javascript: link is no link', () => {
    const { container } = render(
      <Markdown source={'Avant <script>alert(1)</script> <img src=x onerror="alert(2)"> après [clic](javascript:alert(3)) et [data](data:text/html,x)\n\n<iframe src="https://pirate.exemple"></iframe>'} />,
    );
    expect(container.querySelector('script, img, iframe')).toBeNull();
    expect(container.textContent).toContain('<script>');
    expect(container.textContent).toContain('<iframe src="https://pirate.exemple"></iframe>');
    expect(screen.queryAllByRole('link')).toEqual([]);
    expect(screen.getByText(/clic/)).toBeInTheDocument();
  });

  it('lets through http(s), mailto, the app’s paths and anchors only', () => {
    expect(safeHref('https://exemple.fr')).toBe('https://exemple.fr');
    expect(safeHref('mailto:contact@exemple.fr')).toBe('mailto:contact@exemple.fr');
    expect(safeHref('/cgu')).toBe('/cgu');
    expect(safeHref('#article-5')).toBe('#article-5');
    for (const bad of ['javascript:alert(1)', ' JavaScript:alert(1)', 'data:text/html,x', '//pirate.exemple', 'vbscript:x']) expect(safeHref(bad)).toBeNull();
  });

  it('the CGU of the repository say the version the contract names', () => {
    const [year, month, day] = CGU_VERSION.split('-').map(Number);
    const date = new Intl.DateTimeFormat('fr-FR', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date(Date.UTC(year!, month! - 1, day!)));
    expect(CGU_TEXT).toContain(`Version du ${date}.`);
  });
});
