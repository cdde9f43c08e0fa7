import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { AcmeOptions, IssuedCertificate } from './acme-issuer';
import type { CertificateIdentity } from './certificate-plan';

/**
 * An ACME order in a child process (acme-order-child.ts): the daemon stays small (see
 * acme-issuer.ts) and whatever the order allocates goes away with the process. The request goes
 * in on stdin and the certificate and key come back on stdout, a pipe between two processes of
 * the agent; the child's stderr is the agent's.
 */

/** The child's script: beside this file in dist/, or `scn-agent-acme.js` beside the bundle. */
export function acmeOrderScript(): string {
  const candidates = [
    path.join(__dirname, 'acme-order-child.js'),
    path.join(__dirname, 'scn-agent-acme.js'),
  ];
  const found = candidates.find((file) => existsSync(file));
  if (!found) throw new Error(`the ACME order program is missing (${candidates.join(' or ')})`);
  return found;
}

export type OrderRequest = { identity: CertificateIdentity; options: AcmeOptions };
export type OrderAnswer = ({ ok: true } & IssuedCertificate) | { ok: false; error: string };

/** One line, at most 300 characters: what went wrong, as the CA or the network said it. */
export function describeAcmeError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/\s+/g, ' ').trim().slice(0, 300);
}

export function orderInChildProcess(
  identity: CertificateIdentity,
  options: AcmeOptions,
  script: string = acmeOrderScript(),
): Promise<IssuedCertificate> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script], { stdio: ['pipe', 'pipe', 'inherit'] });
    let output = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => (output += chunk));
    child.once('error', reject);
    child.once('close', (code, signal) => {
      let answer: OrderAnswer | null = null;
      try {
        answer = JSON.parse(output) as OrderAnswer;
      } catch {
        reject(
          new Error(`the ACME order program ended (${signal ?? `exit ${code}`}) without an answer`),
        );
        return;
      }
      if (answer.ok) resolve({ certificatePem: answer.certificatePem, keyPem: answer.keyPem });
      else reject(new Error(answer.error));
    });
    const request: OrderRequest = { identity, options };
    child.stdin.end(JSON.stringify(request));
  });
}
