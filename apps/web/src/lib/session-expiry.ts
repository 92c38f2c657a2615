import { withRoute } from './safe-route';

// Kept apart from the api client: the router registers here at start-up without pulling the
// api client (and the contract with zod) into the initial bundle.

let handler = (route: string) => {
  window.location.assign(withRoute('/refresh', route));
};

/** The router registers how to leave for `/refresh?route=…` without reloading the page. */
export function onSessionExpired(next: (route: string) => void) {
  handler = next;
}

export function notifySessionExpired(route: string) {
  handler(route);
}
