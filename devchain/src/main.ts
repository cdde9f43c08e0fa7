#!/usr/bin/env node
import { USAGE, UsageError, parseCliOptions } from './cli-options';
import { startDevchain } from './index';

async function main(): Promise<void> {
  const { help, ...options } = parseCliOptions(process.argv.slice(2));
  if (help) {
    console.log(USAGE);
    return;
  }
  const chain = await startDevchain(options);
  console.log(`devchain: JSON-RPC ${chain.url}, PubSub ${chain.wsUrl}`);
  console.log(`devchain: demo wallet ${chain.demoWalletAddress} at ${chain.demoWalletUrl}`);
  console.log(`devchain: test mints USDC ${chain.testMints.USDC}, USDT ${chain.testMints.USDT}`);
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.once(signal, () => {
      void chain.stop().then(() => process.exit(0));
    });
}

main().catch((error: unknown) => {
  if (error instanceof UsageError) {
    console.error(`scn-devchain: ${error.message}\n\n${USAGE}`);
    process.exit(2);
  }
  console.error('scn-devchain:', error instanceof Error ? error.message : error);
  process.exit(1);
});
