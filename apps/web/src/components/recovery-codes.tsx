import { useState } from 'react';
import './plain/plain.css';
import './recovery-codes.css';

/** The text of the .txt file (and of the copy): the codes, one a line, with what they are for. */
export function recoveryCodesText(codes: readonly string[]): string {
  return [
    'FlotteAssur — codes de secours de la double authentification',
    'Chaque code ne sert qu’une fois, à la place du code de votre application.',
    '',
    ...codes,
    '',
  ].join('\n');
}

/**
 * The ten recovery codes, shown once (after a setup, or a renewal): copy them, or download them
 * as a .txt file. Plain elements: it serves the login page too (issue 10).
 */
export function RecoveryCodes({ codes }: { codes: readonly string[] }) {
  const [copied, setCopied] = useState(false);
  const download = () => {
    const url = URL.createObjectURL(new Blob([recoveryCodesText(codes)], { type: 'text/plain;charset=utf-8' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = 'flotteassur-codes-de-secours.txt';
    link.click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  };
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(recoveryCodesText(codes));
      setCopied(true);
    } catch {
      setCopied(false);
    }
  };
  return (
    <div className="recovery-codes">
      <p className="recovery-codes__intro">
        Gardez ces codes de secours en lieu sûr : si vous perdez votre téléphone, chacun d’eux permet de vous connecter une fois. Ils ne seront plus affichés.
      </p>
      <ul className="recovery-codes__list" aria-label="Codes de secours">
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
      <div className="recovery-codes__actions">
        <button type="button" className="pl-link-button" onClick={() => void copy()}>
          {copied ? 'Codes copiés' : 'Copier les codes'}
        </button>
        <button type="button" className="pl-link-button" onClick={download}>
          Télécharger (.txt)
        </button>
      </div>
    </div>
  );
}
