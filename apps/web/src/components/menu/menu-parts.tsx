// MUI's menu and its items in one module: what a lazy menu loads when first opened (lazy-menu.tsx).
export { default as Menu } from '@mui/material/Menu';
export { default as MenuItem } from '@mui/material/MenuItem';
