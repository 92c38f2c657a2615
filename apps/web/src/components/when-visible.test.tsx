import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { WhenVisible } from './when-visible';

type Observed = { callback: IntersectionObserverCallback; options?: IntersectionObserverInit; elements: Element[]; disconnected: boolean };

/** A stand-in IntersectionObserver whose observers the test drives. */
function stubObserver(): Observed[] {
  const observers: Observed[] = [];
  class FakeObserver {
    private readonly entry: Observed;
    constructor(callback: IntersectionObserverCallback, options?: IntersectionObserverInit) {
      this.entry = { callback, options, elements: [], disconnected: false };
      observers.push(this.entry);
    }
    observe(element: Element) {
      this.entry.elements.push(element);
    }
    disconnect() {
      this.entry.disconnected = true;
    }
  }
  vi.stubGlobal('IntersectionObserver', FakeObserver);
  return observers;
}

function intersect(observer: Observed, isIntersecting: boolean) {
  act(() => {
    observer.callback(
      observer.elements.map((target) => ({ target, isIntersecting }) as IntersectionObserverEntry),
      observer as unknown as IntersectionObserver,
    );
  });
}

describe('<WhenVisible />', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('shows the fallback until its place comes near the screen, then the children for good', () => {
    const observers = stubObserver();
    render(
      <WhenVisible fallback={<p>Graphique à venir</p>}>
        <p>Graphique</p>
      </WhenVisible>,
    );
    expect(screen.getByText('Graphique à venir')).toBeInTheDocument();
    expect(screen.queryByText('Graphique')).not.toBeInTheDocument();
    expect(observers).toHaveLength(1);
    // Watched from a phone's screen ahead, on the fallback's own box.
    expect(observers[0]!.options?.rootMargin).toBe('300px 0px');
    expect(observers[0]!.elements[0]).toContainElement(screen.getByText('Graphique à venir'));

    intersect(observers[0]!, false);
    expect(screen.queryByText('Graphique')).not.toBeInTheDocument();

    intersect(observers[0]!, true);
    expect(screen.getByText('Graphique')).toBeInTheDocument();
    expect(screen.queryByText('Graphique à venir')).not.toBeInTheDocument();
    expect(observers[0]!.disconnected).toBe(true);
  });

  it('stops watching when it leaves the page before being shown', () => {
    const observers = stubObserver();
    const { unmount } = render(
      <WhenVisible fallback={<p>Graphique à venir</p>}>
        <p>Graphique</p>
      </WhenVisible>,
    );
    unmount();
    expect(observers[0]!.disconnected).toBe(true);
  });

  it('renders the children at once where the browser cannot tell what is on screen', () => {
    vi.stubGlobal('IntersectionObserver', undefined);
    render(
      <WhenVisible fallback={<p>Graphique à venir</p>}>
        <p>Graphique</p>
      </WhenVisible>,
    );
    expect(screen.getByText('Graphique')).toBeInTheDocument();
    expect(screen.queryByText('Graphique à venir')).not.toBeInTheDocument();
  });
});
