import { act, render } from '@testing-library/react';
import { useRef } from 'react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useScrollToSection } from './use-scroll-to-section';

function Page({ loaded }: { loaded: boolean }) {
  const ref = useRef<HTMLDivElement>(null);
  useScrollToSection(ref);
  return (
    <div ref={ref}>
      <section id="organisation">Organisation</section>
      {loaded ? <section id="membres">Membres</section> : <p>Chargement…</p>}
    </div>
  );
}

const scrolled = vi.fn<(this: Element) => void>();
afterEach(() => {
  scrolled.mockReset();
  vi.useRealTimers();
});
Element.prototype.scrollIntoView = function (this: Element) {
  scrolled.call(this);
};

/** The page at `path`, its sections not loaded yet; `show()` loads them. */
function renderAt(path: string) {
  const page = (loaded: boolean) => (
    <MemoryRouter initialEntries={[path]}>
      <Page loaded={loaded} />
    </MemoryRouter>
  );
  const result = render(page(false));
  return { ...result, show: () => result.rerender(page(true)) };
}

describe('useScrollToSection', () => {
  it('brings the section of the address’s anchor into view once it has loaded', async () => {
    const { show } = renderAt('/parameters#membres');
    expect(scrolled).not.toHaveBeenCalled();
    await act(async () => show());
    await vi.waitFor(() => expect(scrolled).toHaveBeenCalled());
    expect(scrolled.mock.contexts.every((element) => (element as Element).id === 'membres')).toBe(true);
  });

  it('scrolls nothing without an anchor, and stops once the user scrolls', async () => {
    const plain = renderAt('/parameters');
    await act(async () => plain.show());
    expect(scrolled).not.toHaveBeenCalled();
    plain.unmount();

    const other = renderAt('/parameters#membres');
    window.dispatchEvent(new Event('wheel'));
    await act(async () => other.show());
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(scrolled).not.toHaveBeenCalled();
    other.unmount();
  });
});
