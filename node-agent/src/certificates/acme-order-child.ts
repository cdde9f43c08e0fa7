import { issueCertificate } from './acme-issuer';
import { describeAcmeError, type OrderAnswer, type OrderRequest } from './acme-order';

/**
 * The ACME order program (acme-order.ts): reads one OrderRequest from stdin, orders, writes one
 * OrderAnswer to stdout and exits. Bundled as `scn-agent-acme.js` beside `scn-agent.js`.
 */
async function main(): Promise<void> {
  let input = '';
  process.stdin.setEncoding('utf8');
  for await (const chunk of process.stdin) input += chunk as string;
  let answer: OrderAnswer;
  try {
    const request = JSON.parse(input) as OrderRequest;
    answer = { ok: true, ...(await issueCertificate(request.identity, request.options)) };
  } catch (error) {
    answer = { ok: false, error: describeAcmeError(error) };
  }
  process.stdout.write(JSON.stringify(answer), () => process.exit(0));
}

void main();
