import { useEffect, useRef, useState } from 'react';

export interface CodeBlockProps {
  code: string;
  /** Accessible name of the copy button, e.g. "Copy install command". */
  copyLabel?: string;
}

const COPIED_MS = 2000;

/** A command or snippet in monospace with a copy button ("Copied!" for 2 s, as elsewhere in the app). */
export function CodeBlock({ code, copyLabel = 'Copy to clipboard' }: CodeBlockProps) {
  const [copied, setCopied] = useState(false);
  const timer = useRef<number | undefined>(undefined);

  useEffect(() => () => window.clearTimeout(timer.current), []);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(code);
      setCopied(true);
      window.clearTimeout(timer.current);
      timer.current = window.setTimeout(() => setCopied(false), COPIED_MS);
    } catch {
      // Clipboard access can be refused (insecure origin, permissions); the text stays selectable.
    }
  };

  return (
    <div className="info-code">
      <pre className="info-code__pre">
        <code>{code}</code>
      </pre>
      <button type="button" className="info-code__copy" onClick={copy} aria-label={copied ? 'Copied!' : copyLabel}>
        {copied ? 'Copied!' : 'Copy'}
      </button>
    </div>
  );
}
