/**
 * MUI's `locale/utils/buildFormatNumber` made lazy (vite.config.ts puts this module in its place):
 * MUI's French locale builds its number formatter when its module loads, and a browser's first
 * French NumberFormat loads its locale data (13–36 ms on this machine, four times that on
 * Lighthouse's phone) in the first page's longest task, for labels no first page shows (issue 10).
 * Same behaviour: the formatter is made on the first number formatted.
 */
export default function buildFormatNumber(locale: string): (value: number) => string {
  let formatter: Intl.NumberFormat | null | undefined;
  return (value) => {
    if (!Number.isFinite(value)) return String(value);
    if (formatter === undefined) {
      try {
        formatter = new Intl.NumberFormat(locale);
      } catch {
        formatter = null;
      }
    }
    return formatter ? formatter.format(value) : String(value);
  };
}
