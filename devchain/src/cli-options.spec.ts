import { join } from 'node:path';
import { UsageError, parseCliOptions } from './cli-options';

describe('parseCliOptions', () => {
  it('should read the flags when they are valid', () => {
    expect(
      parseCliOptions(['--port', '0', '--slot-ms', '50', '--finalize-after-slots', '3']),
    ).toMatchObject({ port: 0, slotMs: 50, finalizeAfterSlots: 3, host: '127.0.0.1' });
    expect(parseCliOptions([]).port).toBe(8899);
    expect(parseCliOptions(['--state-file', 'chain.json']).stateFile).toBe(
      join(process.cwd(), 'chain.json'),
    );
  });

  it.each([
    [['--port', '70000']],
    [['--port', '-1']],
    [['--port', '12ab']],
    [['--slot-ms', '0']],
    [['--finalize-after-slots', '0']],
    [['--host', 'evil host']],
    [['--allow-origin', 'javascript:alert(1)']],
    [['--state-file', '']],
    [['--unknown']],
    [['positional']],
  ])('should refuse %j with a usage error', (argv) => {
    expect(() => parseCliOptions(argv)).toThrow(UsageError);
  });
});
