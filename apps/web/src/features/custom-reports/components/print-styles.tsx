/**
 * The browser's Print gives a clean PDF of a report: no sidebar or navigation,
 * no buttons, sections kept whole, light colors.
 */
export function ReportPrintStyles() {
  return (
    <style>{`
      @media print {
        [data-layout] > :not(main) { display: none !important; }
        html, body { background: #fff !important; color: #000 !important; }
        html.dark { color-scheme: light; }
        main { display: block !important; }
        section { break-inside: avoid; }
        button, [role="switch"], .print\\:hidden { display: none !important; }
      }
    `}</style>
  );
}
