import { describe, expect, it } from '@jest/globals';
import { autoRegenerateRequestSchema } from '@scn/proto';
import {
  AUTO_REGENERATION_CHOICES,
  blockedCount,
  choiceOf,
  intervalOf,
} from './reachability-settings';

describe('automatic port regeneration choices', () => {
  it('should offer Off, then 10 min, 1 h, 6 h and 24 h', () => {
    expect(AUTO_REGENERATION_CHOICES).toEqual(['off', '600', '3600', '21600', '86400']);
  });

  it('should send a body the control plane accepts for every choice', () => {
    for (const choice of AUTO_REGENERATION_CHOICES) {
      const body = { intervalS: intervalOf(choice) };
      expect(autoRegenerateRequestSchema.safeParse(body).success).toBe(true);
    }
    expect(intervalOf('off')).toBeNull();
    expect(intervalOf('3600')).toBe(3600);
  });

  it('should show the server setting, and off for one it does not offer', () => {
    expect(choiceOf(null)).toBe('off');
    expect(choiceOf(21_600)).toBe('21600');
    expect(choiceOf(1234)).toBe('off');
  });

  it('should count the networks a server is blocked in', () => {
    expect(blockedCount([{ state: 'blocked' }, { state: 'works' }, { state: 'blocked' }])).toBe(2);
    expect(blockedCount([])).toBe(0);
  });
});
