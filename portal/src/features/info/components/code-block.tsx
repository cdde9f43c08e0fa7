import { CopyButton } from '../../../components/ui/copy-button';
import '../info.css';

export interface CodeBlockProps {
  code: string;
}

/** A command or snippet in monospace with a copy button ("Copied!" for 2 s, as elsewhere). */
export function CodeBlock({ code }: CodeBlockProps) {
  return (
    <div className="info-code">
      <pre className="info-code__pre" dir="ltr">
        <code>{code}</code>
      </pre>
      <CopyButton text={code} className="info-code__copy" />
    </div>
  );
}
