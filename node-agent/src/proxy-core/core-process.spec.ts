import { parseCoreVersion, SerialQueue } from './core-process';

describe('parseCoreVersion', () => {
  it('should read the version when the output is from v2ray -version', () => {
    const output = 'V2Ray 4.34.0 (user) 20230518-074445 (go1.19.8 linux/amd64)\nA unified platform';
    expect(parseCoreVersion(output)).toBe('4.34.0');
  });

  it('should read the version when the output is from xray version', () => {
    const output = 'Xray 1.8.24 (Xray, Penetrates Everything.) 8e6a7a7 (go1.22.5 linux/amd64)';
    expect(parseCoreVersion(output)).toBe('1.8.24');
  });

  it('should return an empty string when the output names no core', () => {
    expect(parseCoreVersion('command not found')).toBe('');
  });
});

describe('SerialQueue', () => {
  it('should run each task after the previous one settled when one of them rejects', async () => {
    const queue = new SerialQueue();
    const log: string[] = [];
    let release = () => {};
    const first = queue.run(
      () =>
        new Promise<void>((resolve) => {
          log.push('first started');
          release = () => {
            log.push('first done');
            resolve();
          };
        }),
    );
    const second = queue.run(async () => {
      log.push('second');
      throw new Error('second failed');
    });
    const third = queue.run(async () => {
      log.push('third');
      return 3;
    });

    await new Promise((resolve) => setImmediate(resolve));
    expect(log).toEqual(['first started']);
    release();

    await first;
    await expect(second).rejects.toThrow('second failed');
    await expect(third).resolves.toBe(3);
    expect(log).toEqual(['first started', 'first done', 'second', 'third']);
  });
});
