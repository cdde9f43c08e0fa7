// Original file: scn/agent/v1/agent.proto

export const Tier = {
  TIER_UNSPECIFIED: 'TIER_UNSPECIFIED',
  TIER_1: 'TIER_1',
  TIER_2: 'TIER_2',
  TIER_3: 'TIER_3',
  TIER_4: 'TIER_4',
} as const;

export type Tier =
  | 'TIER_UNSPECIFIED'
  | 0
  | 'TIER_1'
  | 1
  | 'TIER_2'
  | 2
  | 'TIER_3'
  | 3
  | 'TIER_4'
  | 4

export type Tier__Output = typeof Tier[keyof typeof Tier]
