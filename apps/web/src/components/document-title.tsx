/** React 19 hoists <title> into <head>: one per page, e.g. 'Tableau de bord — FlotteAssur'. */
export function DocumentTitle({ title }: { title: string }) {
  return <title>{`${title} — FlotteAssur`}</title>;
}
