import type { MenuProps } from '@mui/material/Menu';
import type MuiMenuItem from '@mui/material/MenuItem';
import { Suspense } from 'react';
import { lazyComponent, useOpenedOnce } from '../lazy-component';

// Menus opened from a button (the user's, the organization switcher, a row's actions): MUI's Menu
// brings its popover, modal, focus trap and transitions, ≈ 8 kB of a phone's first load (issue 10).
// Here it is fetched when the menu first opens, or earlier on a sign of intent (`preloadMenu` with
// intentProps on the button); the feature code writes its menu as with MUI's.

const parts = () => import('./menu-parts');
const LoadedMenu = lazyComponent<MenuProps>(() => parts().then((module) => module.Menu));
const LoadedMenuItem = lazyComponent(() => parts().then((module) => module.MenuItem));

/** Starts the download of the menus' module (a button hovered, focused or touched). */
export const preloadMenu = LoadedMenu.preload;

/** MUI's Menu, rendered from its first opening (nothing before: no anchor yet to show it at). */
export function Menu(props: MenuProps) {
  if (!useOpenedOnce(props.open)) return null;
  return (
    <Suspense fallback={null}>
      <LoadedMenu {...props} />
    </Suspense>
  );
}

/** MUI's MenuItem, inside a Menu of this module (loaded with it). */
export const MenuItem = LoadedMenuItem as unknown as typeof MuiMenuItem;
