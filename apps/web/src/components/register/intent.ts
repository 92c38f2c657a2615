/**
 * The props that start a download when a button is hovered, focused or touched, so the dialog it
 * opens is there by the click (a touch comes about 100 ms before its click).
 */
export function intentProps(onIntent: (() => void) | undefined) {
  return onIntent ? { onPointerEnter: onIntent, onFocus: onIntent, onTouchStart: onIntent } : {};
}
